import { describe, expect, it } from 'vitest';
import { addDays, isDay, lastDays, searchOfView, viewFromSearch } from './range';

const providers = [
  { id: 1, name: 'Stadtwerke Nord' },
  { id: 2, name: 'Glasfaser Süd' },
];

describe('days', () => {
  it('counts across months, years, leap days and the change to summer time', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });

  it('knows a real day from anything else', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('')).toBe(false);
    expect(isDay('0002-01-0')).toBe(false);
  });

  it('defaults to the 30 days up to today', () => {
    expect(lastDays('2026-07-01')).toEqual({ from: '2026-06-02', to: '2026-07-01' });
    expect(lastDays('2026-03-15')).toEqual({ from: '2026-02-14', to: '2026-03-15' });
  });
});

describe('the view in the address bar', () => {
  it('reads range and provider, and falls back to the defaults', () => {
    expect(viewFromSearch('?from=2026-01-01&to=2026-01-31&providerId=2', '2026-07-01', providers)).toEqual({
      range: { from: '2026-01-01', to: '2026-01-31' },
      providerId: 2,
    });
    expect(viewFromSearch('', '2026-07-01', providers)).toEqual({
      range: { from: '2026-06-02', to: '2026-07-01' },
      providerId: null,
    });
    // A broken day, or a provider the user may not choose.
    expect(viewFromSearch('?from=2026-02-30&to=2026-03-01&providerId=9', '2026-07-01', providers)).toEqual({
      range: { from: '2026-06-02', to: '2026-07-01' },
      providerId: null,
    });
  });

  it('writes only what differs from the defaults', () => {
    const today = '2026-07-01';
    expect(searchOfView({ range: lastDays(today), providerId: null }, today)).toBe('');
    expect(searchOfView({ range: lastDays(today), providerId: 2 }, today)).toBe('?providerId=2');
    expect(searchOfView({ range: { from: '2026-01-01', to: '2026-01-31' }, providerId: null }, today)).toBe(
      '?from=2026-01-01&to=2026-01-31',
    );
  });
});
