import { describe, expect, it } from 'vitest';
import { filesZipUrl, idsParam, parseIds, toSearchParams } from './downloads';

describe('download list parameters', () => {
  it('leave out empty values', () => {
    expect(toSearchParams({ limit: 20, offset: 0, search: '', providerIds: null, sort: 'DESC' }).toString()).toBe(
      'limit=20&offset=0&sort=DESC',
    );
  });

  it('carry id lists as JSON arrays', () => {
    expect(idsParam([3, 1])).toBe('[3,1]');
    expect(idsParam([])).toBeNull();
    expect(parseIds('[3,1]')).toEqual([3, 1]);
    expect(parseIds('[x]')).toEqual([]);
    expect(parseIds('kaputt')).toEqual([]);
    expect(parseIds(null)).toEqual([]);
  });

  it('name chosen files for the server ZIP as package:upload pairs', () => {
    expect(filesZipUrl([{ downloadId: 12, id: 5 }, { downloadId: 13, id: 9 }])).toBe('/api/downloads/zip?files=12:5,13:9');
  });
});
