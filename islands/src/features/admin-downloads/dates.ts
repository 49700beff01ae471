// The form's date inputs hold German calendar days: the server reads `YYYY-MM-DD` as the start
// (00:00) or the end (23:59:59) of that day in Berlin, whatever zone the browser is in.

const BERLIN_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** `2026-11-30T23:00:00Z` → `2026-12-01` (the day in Berlin); '' for a missing or invalid value. */
export function berlinDay(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(BERLIN_DAY.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}
