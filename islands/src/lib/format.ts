// German (de-DE) formatting of dates and file sizes, shared by every island.
// Dates are shown in German time (Europe/Berlin), as the server renders them, whatever zone the
// browser is set to: a package starting at midnight in Berlin must not read "23:00" the day
// before on a laptop set to UTC.

/** The zone the portal's dates are meant in (the server's too). */
export const PORTAL_TIME_ZONE = 'Europe/Berlin';

function toDate(iso: string | null | undefined): Date | null {
  if (iso === null || iso === undefined || iso.trim() === '') return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const germanDate = new Intl.DateTimeFormat('de-DE', {
  timeZone: PORTAL_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

const germanDateTime = new Intl.DateTimeFormat('de-DE', {
  timeZone: PORTAL_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  // h23, so midnight reads 00:00 and never 24:00.
  hourCycle: 'h23',
});

const germanTime = new Intl.DateTimeFormat('de-DE', {
  timeZone: PORTAL_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `2025-03-05T14:07:00Z` → `05.03.2025` (German time); empty string for a missing or invalid value. */
export function formatDate(iso: string | null | undefined): string {
  const date = toDate(iso);
  return date ? germanDate.format(date) : '';
}

/** `2025-03-05T14:07:00Z` → `05.03.2025, 15:07` (German time, 24 h); empty string if invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = toDate(iso);
  return date ? germanDateTime.format(date) : '';
}

/** `2025-03-05T08:07:09Z` → `09:07:09` (German time, 24 h). */
export function formatTime(at: Date): string {
  return germanTime.format(at);
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
