// German formatting of the statistics: shares as percentages and days of the range. A day
// `YYYY-MM-DD` is already a German day; it is formatted as noon UTC of that date in Berlin's
// zone, which is the same date there in winter and in summer, whatever zone the browser is in.
import { PORTAL_TIME_ZONE } from '../../../lib/format';

const percent = new Intl.NumberFormat('de-DE', { style: 'percent', maximumFractionDigits: 1 });

/** `0.75` → `75 %`, `0.123` → `12,3 %` (with the non-breaking space German puts before %). */
export function formatShare(share: number): string {
  return Number.isFinite(share) ? percent.format(share) : '';
}

const shortDay = new Intl.DateTimeFormat('de-DE', { timeZone: PORTAL_TIME_ZONE, day: '2-digit', month: '2-digit' });
const longDay = new Intl.DateTimeFormat('de-DE', {
  timeZone: PORTAL_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

function noonOf(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const at = new Date(`${day}T12:00:00Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** `2026-03-05` → `05.03.` (the chart's axis). */
export function formatDayShort(day: string): string {
  const at = noonOf(day);
  // de-DE writes the day and month as `05.03.`; the final dot is part of the German date.
  return at ? shortDay.format(at) : '';
}

/** `2026-03-05` → `05.03.2026`. */
export function formatDay(day: string): string {
  const at = noonOf(day);
  return at ? longDay.format(at) : '';
}

/** `01.05.2026 – 30.05.2026`. */
export function formatRange(from: string, to: string): string {
  return `${formatDay(from)} – ${formatDay(to)}`;
}
