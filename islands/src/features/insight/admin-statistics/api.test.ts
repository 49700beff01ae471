import { describe, expect, it } from 'vitest';
import { csvUrl, exportUrl } from './api';

const range = { from: '2026-06-02', to: '2026-07-01' };
const base = '/api/statistics/export.csv?';

describe('exportUrl', () => {
  it('links every view of the range, without a provider when all are chosen', () => {
    for (const view of ['days', 'packages', 'files', 'untouched', 'providers'] as const) {
      expect(exportUrl(view, range)).toBe(`${base}view=${view}&from=2026-06-02&to=2026-07-01`);
      expect(exportUrl(view, range, null)).toBe(`${base}view=${view}&from=2026-06-02&to=2026-07-01`);
    }
  });

  it('narrows the days and lists to the chosen provider, but not the provider shares', () => {
    for (const view of ['days', 'packages', 'files', 'untouched'] as const) {
      expect(exportUrl(view, range, 2)).toBe(`${base}view=${view}&from=2026-06-02&to=2026-07-01&providerId=2`);
    }
    expect(exportUrl('providers', range, 2)).toBe(`${base}view=providers&from=2026-06-02&to=2026-07-01`);
  });

  it("names one package's files by its id, and no other view", () => {
    expect(exportUrl('package', range, null, 7)).toBe(`${base}view=package&from=2026-06-02&to=2026-07-01&packageId=7`);
    expect(exportUrl('package', range, 2, 7)).toBe(`${base}view=package&from=2026-06-02&to=2026-07-01&packageId=7`);
    expect(exportUrl('packages', range, null, 7)).toBe(`${base}view=packages&from=2026-06-02&to=2026-07-01`);
  });

  it('encodes what it is given', () => {
    expect(exportUrl('days', { from: '2026-01-01', to: 'a&b' })).toBe(`${base}view=days&from=2026-01-01&to=a%26b`);
  });
});

describe('csvUrl', () => {
  it("links the range's packages as before", () => {
    expect(csvUrl(range)).toBe('/api/statistics/packages.csv?from=2026-06-02&to=2026-07-01');
  });
});
