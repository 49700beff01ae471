// Where the ZIP is made. jszip holds about three times the data in memory (jszip #343, #832),
// so selections above the configured size, or above what the device's memory allows, go to
// the server's streamed ZIP instead (same name and folder layout, exact length, resumable).
import { filesZipUrl } from '../../../../lib/downloads';
import type { ZipEntryPlan } from '../zipLayout';

export type ZipRoute = { kind: 'browser' } | { kind: 'server'; reason: 'size' | 'memory' };

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
/** Bytes jszip holds per byte of the files. */
const JSZIP_MEMORY_FACTOR = 3;
/** Share of the device's memory a tab may reasonably use. */
const TAB_SHARE_OF_MEMORY = 0.25;

/**
 * `limitMb`: the portal's AP_BROWSER_ZIP_LIMIT_MB (0: always the server). `deviceMemoryGb`:
 * `navigator.deviceMemory` where the browser tells it (Chromium), else undefined.
 */
export function chooseZipRoute(totalBytes: number, limitMb: number, deviceMemoryGb?: number): ZipRoute {
  if (totalBytes > limitMb * MIB) return { kind: 'server', reason: 'size' };
  if (deviceMemoryGb && totalBytes * JSZIP_MEMORY_FACTOR > deviceMemoryGb * GIB * TAB_SHARE_OF_MEMORY) {
    return { kind: 'server', reason: 'memory' };
  }
  return { kind: 'browser' };
}

/** The server ZIP of the planned entries, in the same order. */
export function serverZipUrl(entries: readonly ZipEntryPlan[]): string {
  return filesZipUrl(entries.map(({ file }) => ({ downloadId: file.downloadId, id: file.id })));
}

/** Whether an error means the browser ran out of memory (allocation failed). */
export function isOutOfMemory(error: unknown): boolean {
  return error instanceof RangeError || (error instanceof Error && /out of memory|allocation/i.test(error.message));
}

export function deviceMemory(): number | undefined {
  const value = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  return typeof value === 'number' && value > 0 ? value : undefined;
}
