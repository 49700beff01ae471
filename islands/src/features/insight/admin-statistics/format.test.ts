import { describe, expect, it } from 'vitest';
import { formatDay, formatDayShort, formatRange, formatShare } from './format';

// The tests run in America/New_York (vite.config.ts): a day must not slip to the one before.
describe('formatShare', () => {
  it('writes a German percentage with the non-breaking space before %', () => {
    expect(formatShare(0.75)).toBe('75\u00a0%');
    expect(formatShare(0.123)).toBe('12,3\u00a0%');
    expect(formatShare(0)).toBe('0\u00a0%');
    expect(formatShare(1)).toBe('100\u00a0%');
    expect(formatShare(Number.NaN)).toBe('');
  });
});

describe('days of the range', () => {
  it('formats the short axis label as dd.mm.', () => {
    expect(formatDayShort('2026-03-05')).toBe('05.03.');
    expect(formatDayShort('2026-12-31')).toBe('31.12.');
  });

  it('keeps the day across the changes to and from summer time, in any browser zone', () => {
    expect(formatDay('2026-03-29')).toBe('29.03.2026');
    expect(formatDay('2026-10-25')).toBe('25.10.2026');
    expect(formatDay('2026-01-01')).toBe('01.01.2026');
  });

  it('gives an empty string for what is not a day', () => {
    expect(formatDay('')).toBe('');
    expect(formatDay('2026-13-01')).toBe('');
    expect(formatDayShort('gestern')).toBe('');
  });

  it('writes a range with a dash', () => {
    expect(formatRange('2026-06-02', '2026-07-01')).toBe('02.06.2026 – 01.07.2026');
  });
});
