// German (de-DE) formatting of dates and file sizes, shared by every island.
// Dates are shown in the browser's local time zone.

function toDate(iso: string | null | undefined): Date | null {
  if (iso === null || iso === undefined || iso.trim() === '') return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** `2025-03-05T14:07:00Z` → `05.03.2025`; empty string for a missing or invalid value. */
export function formatDate(iso: string | null | undefined): string {
  const date = toDate(iso);
  if (!date) return '';
  return `${pad2(date.getDate())}.${pad2(date.getMonth() + 1)}.${date.getFullYear()}`;
}

/** `2025-03-05T14:07:00Z` → `05.03.2025, 15:07` (local time, 24 h); empty string if invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = toDate(iso);
  if (!date) return '';
  return `${formatDate(iso)}, ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

const sizeNumber = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

/**
 * File size in binary units with a German decimal comma:
 * `0` → `0 Bytes`, `1` → `1 Byte`, `1536` → `1,5 KiB`, `1048576` → `1 MiB`.
 * Empty string for a negative or non-finite value.
 */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) {
    const whole = Math.round(bytes);
    return `${whole} ${whole === 1 ? 'Byte' : 'Bytes'}`;
  }
  let value = bytes / 1024;
  let unit = 0;
  // Move up while the value, as it would be shown (one decimal), reaches 1024.
  while (unit < UNITS.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${sizeNumber.format(value)} ${UNITS[unit]}`;
}

const countNumber = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 0 });

/** Whole numbers with German thousands separators: `12345` → `12.345`. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return countNumber.format(value);
}
