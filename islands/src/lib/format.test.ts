import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDateTime, formatFileSize, formatTime } from './format';

// vite.config.ts runs the tests in America/New_York: the portal's dates must come out in German
// time whatever zone the browser is in.
it('runs in a zone other than Berlin', () => {
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/New_York');
  expect(new Date('2026-01-15T12:00:00Z').getTimezoneOffset()).toBe(300);
});

describe('formatDate', () => {
  it('formats as dd.mm.yyyy in German time', () => {
    expect(formatDate('2025-03-05T14:07:00Z')).toBe('05.03.2025');
    expect(formatDate('2025-12-31T23:30:00Z')).toBe('01.01.2026');
    expect(formatDate('2026-01-01')).toBe('01.01.2026');
  });

  it('gives an empty string for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('kein Datum')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('formats as dd.mm.yyyy, HH:MM with a 24 hour clock', () => {
    expect(formatDateTime('2025-03-05T14:07:00Z')).toBe('05.03.2025, 15:07');
    expect(formatDateTime('2025-07-09T21:05:59Z')).toBe('09.07.2025, 23:05');
    expect(formatDateTime('2025-07-09T22:00:00Z')).toBe('10.07.2025, 00:00');
  });

  it('shows midnight in Berlin as 00:00 on its day, in winter and in summer', () => {
    expect(formatDateTime('2026-01-14T23:00:00Z')).toBe('15.01.2026, 00:00');
    expect(formatDate('2026-01-14T23:00:00Z')).toBe('15.01.2026');
    expect(formatDateTime('2026-06-30T22:00:00Z')).toBe('01.07.2026, 00:00');
    expect(formatDate('2026-06-30T22:00:00Z')).toBe('01.07.2026');
  });

  it('gives an empty string for invalid values', () => {
    expect(formatDateTime('2025-13-45')).toBe('');
    expect(formatDateTime(null)).toBe('');
  });
});

describe('formatTime', () => {
  it('shows the German time as HH:MM:SS', () => {
    expect(formatTime(new Date('2025-03-05T08:07:03Z'))).toBe('09:07:03');
    expect(formatTime(new Date('2025-07-05T22:00:00Z'))).toBe('00:00:00');
  });
});

describe('formatFileSize', () => {
  it('shows bytes below 1 KiB', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(1)).toBe('1 Byte');
    expect(formatFileSize(1023)).toBe('1023 Bytes');
  });

  it('uses binary units with a German decimal comma', () => {
    expect(formatFileSize(1024)).toBe('1 KiB');
    expect(formatFileSize(1536)).toBe('1,5 KiB');
    expect(formatFileSize(1024 * 1024)).toBe('1 MiB');
    expect(formatFileSize(2.25 * 1024 ** 2)).toBe('2,3 MiB');
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5 GiB');
    expect(formatFileSize(3.5 * 1024 ** 4)).toBe('3,5 TiB');
  });

  it('groups thousands and stays in TiB for huge values', () => {
    expect(formatFileSize(2048 * 1024 ** 4)).toBe('2.048 TiB');
  });

  it('moves to the next unit when rounding reaches 1024', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MiB');
    expect(formatFileSize(1023.9 * 1024)).toBe('1.023,9 KiB');
  });

  it('gives an empty string for invalid values', () => {
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
    expect(formatFileSize(Number.POSITIVE_INFINITY)).toBe('');
    expect(formatFileSize(null)).toBe('');
  });
});

describe('formatCount', () => {
  it('uses German thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(12345)).toBe('12.345');
    expect(formatCount(null)).toBe('');
  });
});
