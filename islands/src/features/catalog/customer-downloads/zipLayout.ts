// Name and folder layout of the download manager's ZIP (spec §4), the same as the server's
// package ZIP (src/services/catalog/files.rs `zip_name`, `plan_zip`; src/storage/zip.rs
// `safe_segment`, `unique_name`), so both paths give the dealer the same archive.
import { dayOf } from '../../../lib/berlinDay';
import type { SelectedFile } from './selection';

const MAX_SEGMENT_CHARS = 200;

/** A name usable as one path segment: no slashes or control characters, no leading dot. */
export function safeSegment(name: string): string {
  const cleaned = Array.from(name, (c) => (c === '/' || c === '\\' || /\p{Cc}/u.test(c) ? '_' : c))
    .join('')
    .trim()
    .replace(/^\.+/, '');
  const cut = Array.from(cleaned).slice(0, MAX_SEGMENT_CHARS).join('');
  return cut === '' ? 'Datei' : cut;
}

/** `name`, made unique among `taken` (case-insensitive) by a counter: "Flyer (2).pdf". */
export function uniqueName(name: string, taken: Set<string>): string {
  const claim = (candidate: string): boolean => {
    const key = candidate.toLowerCase();
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  };
  if (claim(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n += 1) {
    const candidate = `${stem} (${n})${ext}`;
    if (claim(candidate)) return candidate;
  }
}

/** `2026-11-23_Netzvermarktung Aktionsportal.zip`. */
export function zipName(productName: string, now: Date): string {
  return `${dayOf(now)}_${safeSegment(productName)} Aktionsportal.zip`;
}

export interface ZipEntryPlan {
  /** `<package folder>/<file name>`. */
  path: string;
  file: SelectedFile;
}

/**
 * The entries of the ZIP: packages in the order they were first chosen, files in their
 * package's order, one folder per package name; clashing names get a counter.
 */
export function planEntries(files: Iterable<SelectedFile>): ZipEntryPlan[] {
  const all = Array.from(files);
  const packageOrder: number[] = [];
  for (const file of all) if (!packageOrder.includes(file.downloadId)) packageOrder.push(file.downloadId);
  const sorted = [...all].sort(
    (a, b) =>
      packageOrder.indexOf(a.downloadId) - packageOrder.indexOf(b.downloadId) ||
      a.position - b.position ||
      a.id - b.id,
  );
  const folders = new Map<number, string>();
  const takenFolders = new Set<string>();
  const takenNames = new Map<number, Set<string>>();
  return sorted.map((file) => {
    let folder = folders.get(file.downloadId);
    if (folder === undefined) {
      folder = uniqueName(safeSegment(file.downloadName), takenFolders);
      folders.set(file.downloadId, folder);
    }
    let taken = takenNames.get(file.downloadId);
    if (!taken) {
      taken = new Set();
      takenNames.set(file.downloadId, taken);
    }
    return { path: `${folder}/${uniqueName(safeSegment(file.name), taken)}`, file };
  });
}
