// The browser path of the download manager: each file fetched with its byte progress, then
// packed with jszip, then handed to the browser as a download.
import JSZip from 'jszip';
import type { ZipEntryPlan } from '../zipLayout';

/** Files that are compressed already gain nothing from DEFLATE, only time. */
const STORED_EXTENSIONS = new Set([
  'zip', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'mp4', 'mov', 'pdf', 'docx', 'xlsx', 'pptx', 'psd', 'indd', 'ai', 'eps',
]);

export class FileFetchError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
    this.name = 'FileFetchError';
  }
}

/** Fetches a file, reporting bytes received and the Content-Length (null when missing). */
export async function fetchWithProgress(
  url: string,
  onProgress: (loaded: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'same-origin', signal });
  if (!response.ok) throw new FileFetchError(response.status);
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress(bytes.length, total ?? bytes.length);
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** Runs `task` for every item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The ZIP of the fetched entries; `onProgress` gets 0–100. */
export async function buildZip(
  entries: readonly { plan: ZipEntryPlan; data: Uint8Array }[],
  onProgress: (percent: number) => void,
): Promise<Blob> {
  const zip = new JSZip();
  for (const { plan, data } of entries) {
    const ext = plan.file.ext.toLowerCase();
    zip.file(plan.path, data, {
      binary: true,
      // Entries only, like the server's ZIP (no separate folder entries).
      createFolders: false,
      compression: STORED_EXTENSIONS.has(ext) ? 'STORE' : 'DEFLATE',
      compressionOptions: { level: 6 },
    });
  }
  return zip.generateAsync({ type: 'blob', mimeType: 'application/zip', streamFiles: true }, (metadata) =>
    onProgress(metadata.percent),
  );
}

/** Hands a URL to the browser as a download named `name` (no page change). */
export function startDownload(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a Blob as a download; the object URL is freed once the browser has taken it. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  startDownload(url, name);
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
