// Day ranges of the statistics: the default (the 30 days up to today), and the choice kept in
// the address bar, so a reload or a shared link shows the same figures. Days are German
// calendar days as `YYYY-MM-DD` strings; they are counted in UTC arithmetic, which has no
// summer time, so no zone takes part.
import type { DayRange, ProviderChoice, StatisticsView } from './types';

/** The default range: this many days, today included (the server's default too). */
export const DEFAULT_DAYS = 30;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day as UTC midnight, or null for anything but a real `YYYY-MM-DD` day. */
function utcMidnight(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, date));
  // `2026-02-30` would roll over into March.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== date) return null;
  return at;
}

export function isDay(value: string): boolean {
  return utcMidnight(value) !== null;
}

/** `addDays('2026-03-01', -1)` → `2026-02-28`. The day must be valid. */
export function addDays(day: string, days: number): string {
  const at = utcMidnight(day);
  if (!at) throw new RangeError(`not a day: ${day}`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The 30 days up to and including `today`. */
export function lastDays(today: string, days = DEFAULT_DAYS): DayRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/**
 * The view the address bar names (`?from=&to=&providerId=`), with the defaults for what it
 * leaves out or gets wrong; a provider the user may not choose is left out.
 */
export function viewFromSearch(search: string, today: string, providers: readonly ProviderChoice[]): StatisticsView {
  const params = new URLSearchParams(search);
  const fallback = lastDays(today);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const range = isDay(from) && isDay(to) ? { from, to } : fallback;
  const id = Number(params.get('providerId'));
  const providerId = providers.some((provider) => provider.id === id) ? id : null;
  return { range, providerId };
}

/** The address bar's query for a view: empty for the default one. */
export function searchOfView(view: StatisticsView, today: string): string {
  const params = new URLSearchParams();
  const fallback = lastDays(today);
  if (view.range.from !== fallback.from || view.range.to !== fallback.to) {
    params.set('from', view.range.from);
    params.set('to', view.range.to);
  }
  if (view.providerId !== null) params.set('providerId', String(view.providerId));
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
