// Calendar days in German time, the way date inputs (`YYYY-MM-DD`) hold them, and the instants
// they begin and end at. The browser's own zone never takes part: an admin in Lisbon still
// means 1 December in Berlin when typing 1 December.
import { PORTAL_TIME_ZONE } from './format';

const BERLIN_WALL_CLOCK = new Intl.DateTimeFormat('en-CA', {
  timeZone: PORTAL_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(at: Date): WallClock {
  const parts = Object.fromEntries(
    BERLIN_WALL_CLOCK.formatToParts(at).map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-11-30T23:00:00Z` → `2026-12-01` (the day in Berlin); '' for a missing or invalid value. */
export function berlinDay(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dayOf(date);
}

/** Today (or `now`) as the Berlin day `YYYY-MM-DD`. */
export function dayOf(now: Date): string {
  const clock = wallClock(now);
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

/** Milliseconds Berlin is ahead of UTC at `at` (1 h in winter, 2 h in summer). */
function berlinOffset(at: number): number {
  const c = wallClock(new Date(at));
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a Berlin wall-clock time names. The offset is read twice because the first
 * guess may sit on the other side of a change to or from summer time.
 */
function berlinInstant(day: string, hour: number, minute: number, second: number): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const asUtc = Date.UTC(year, month - 1, date, hour, minute, second);
  const check = new Date(asUtc);
  // `2026-02-30` would roll over to March.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  let instant = asUtc - berlinOffset(asUtc);
  instant = asUtc - berlinOffset(instant);
  return new Date(instant).toISOString().replace('.000Z', 'Z');
}

/** `2026-12-01` → `2026-11-30T23:00:00Z` (00:00 in Berlin); null for anything but a real day. */
export function berlinStartOfDay(day: string): string | null {
  return berlinInstant(day, 0, 0, 0);
}

/** `2026-06-30` → `2026-06-30T21:59:59Z` (23:59:59 in Berlin, the day's last second); null if invalid. */
export function berlinEndOfDay(day: string): string | null {
  return berlinInstant(day, 23, 59, 59);
}
