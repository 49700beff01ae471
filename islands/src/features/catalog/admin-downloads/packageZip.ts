// The package ZIP the server streams (GET /api/download/{id}/zip), fetched with byte progress
// and handed to the browser as a file, or, when too large to hold in the page, left to the
// browser's own download.
import { ApiError, loginUrl, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import { packageZipUrl } from '../../../lib/downloads';
import { navigateTo } from '../../../lib/navigate';
import { dayOf } from '../../../lib/berlinDay';

/** The name the server gives the archive (Content-Disposition, RFC 6266), or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Malformed escapes: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  const name = plain?.[1]?.trim();
  return name ? name : null;
}

/** The server's naming (spec §4): today's date, then the portal's name. */
export function fallbackZipName(productName: string, now: Date): string {
  return `${dayOf(now)}_${productName} Aktionsportal.zip`;
}

/** Reads the package ZIP, reporting bytes received of the exact length the server announces. */
export async function fetchPackageZip(
  downloadId: number,
  onProgress: (received: number, total: number) => void,
  signal: AbortSignal,
  /** Each chunk as it arrives (the per-file progress reads the archive's headers from them). */
  onChunk?: (chunk: Uint8Array) => void,
): Promise<{ chunks: Uint8Array<ArrayBuffer>[]; fileName: string | null }> {
  const response = await fetch(packageZipUrl(downloadId), { credentials: 'same-origin', signal });
  if (response.status === 401) {
    navigateTo(loginUrl());
    throw new ApiError(401, 'Bitte melden Sie sich an.');
  }
  if (!response.ok || !response.body) throw new ApiError(response.status, UNEXPECTED_ERROR_MESSAGE);
  const total = Number(response.headers.get('Content-Length')) || 0;
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onChunk?.(value);
    onProgress(received, Math.max(total, received));
  }
  return { chunks, fileName: fileNameOf(response.headers.get('Content-Disposition')) };
}

/** Lets the browser save `href` (a file URL or an object URL) under its download name. */
export function saveAs(href: string, fileName?: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName ?? '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
