import { describe, expect, it } from 'vitest';
import { berlinDay, berlinEndOfDay, berlinStartOfDay, dayOf } from './berlinDay';

// The tests run in America/New_York (vite.config.ts), so a result that used the browser's own
// zone would be off by six hours.
describe('berlinDay', () => {
  it('gives the German calendar day of an instant', () => {
    expect(berlinDay('2026-11-30T23:30:00Z')).toBe('2026-12-01');
    expect(berlinDay('2026-06-30T21:59:59Z')).toBe('2026-06-30');
    expect(berlinDay('2026-01-14T23:00:00Z')).toBe('2026-01-15');
    expect(berlinDay('')).toBe('');
    expect(berlinDay(null)).toBe('');
    expect(berlinDay('kein Datum')).toBe('');
  });

  it('gives today in Berlin', () => {
    expect(dayOf(new Date('2026-03-28T23:30:00Z'))).toBe('2026-03-29');
  });
});

describe('berlinStartOfDay / berlinEndOfDay', () => {
  it('uses one hour ahead of UTC in winter', () => {
    expect(berlinStartOfDay('2026-01-15')).toBe('2026-01-14T23:00:00Z');
    expect(berlinEndOfDay('2026-01-15')).toBe('2026-01-15T22:59:59Z');
  });

  it('uses two hours ahead of UTC in summer', () => {
    expect(berlinStartOfDay('2026-07-01')).toBe('2026-06-30T22:00:00Z');
    expect(berlinEndOfDay('2026-06-30')).toBe('2026-06-30T21:59:59Z');
  });

  it('gets the days of the clock changes right', () => {
    // 29 March 2026: 02:00 becomes 03:00, so the day starts in winter and ends in summer time.
    expect(berlinStartOfDay('2026-03-29')).toBe('2026-03-28T23:00:00Z');
    expect(berlinEndOfDay('2026-03-29')).toBe('2026-03-29T21:59:59Z');
    // 25 October 2026: 03:00 becomes 02:00 again.
    expect(berlinStartOfDay('2026-10-25')).toBe('2026-10-24T22:00:00Z');
    expect(berlinEndOfDay('2026-10-25')).toBe('2026-10-25T22:59:59Z');
  });

  it('turns its own days back into the same day', () => {
    for (const day of ['2026-01-01', '2026-03-29', '2026-06-15', '2026-10-25', '2026-12-31']) {
      expect(berlinDay(berlinStartOfDay(day))).toBe(day);
      expect(berlinDay(berlinEndOfDay(day))).toBe(day);
    }
  });

  it('refuses anything but a real day', () => {
    expect(berlinStartOfDay('')).toBeNull();
    expect(berlinStartOfDay('2026-02-30')).toBeNull();
    expect(berlinEndOfDay('01.12.2026')).toBeNull();
  });
});
