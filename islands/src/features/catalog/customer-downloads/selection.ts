// The files chosen for the download manager. Keyed by package and file, since one stored
// file can sit in several packages (and lands in each package's folder of the ZIP). A choice
// outlives the rows: files stay chosen when a filter hides their package.
import type { Download, DownloadFile } from '../../../lib/downloads';

export interface SelectedFile {
  downloadId: number;
  downloadName: string;
  id: number;
  name: string;
  path: string;
  size: number;
  ext: string;
  /** Place of the file in its package (the ZIP keeps the package's order). */
  position: number;
}

/** Chosen files in the order they were chosen. */
export type Selection = ReadonlyMap<string, SelectedFile>;

export const EMPTY_SELECTION: Selection = new Map();

export function fileKey(downloadId: number, fileId: number): string {
  return `${downloadId}:${fileId}`;
}

function entry(file: DownloadFile, position: number): [string, SelectedFile] {
  return [
    fileKey(file.downloadId, file.id),
    {
      downloadId: file.downloadId,
      downloadName: file.downloadName,
      id: file.id,
      name: file.name,
      path: file.path,
      size: file.size,
      ext: file.ext,
      position,
    },
  ];
}

/** Chooses (`on`) or drops the given files of `download`. */
export function withFiles(
  selection: Selection,
  download: Download,
  files: readonly DownloadFile[],
  on: boolean,
): Selection {
  const next = new Map(selection);
  for (const file of files) {
    const [key, value] = entry(file, download.Uploads.indexOf(file));
    if (on) {
      if (!next.has(key)) next.set(key, value);
    } else {
      next.delete(key);
    }
  }
  return next;
}

export type CheckState = 'none' | 'some' | 'all';

/** How many of `files` are chosen, as a tri-state checkbox shows it. */
export function checkState(selection: Selection, files: readonly DownloadFile[]): CheckState {
  if (files.length === 0) return 'none';
  const chosen = files.filter((file) => selection.has(fileKey(file.downloadId, file.id))).length;
  if (chosen === 0) return 'none';
  return chosen === files.length ? 'all' : 'some';
}

/** Chooses or drops every file of the packages. */
export function withPackages(selection: Selection, packages: readonly Download[], on: boolean): Selection {
  return packages.reduce((next, download) => withFiles(next, download, download.Uploads, on), selection);
}

/** Total bytes of the chosen files. */
export function selectedBytes(selection: Selection): number {
  let total = 0;
  for (const file of selection.values()) total += Math.max(0, file.size);
  return total;
}
