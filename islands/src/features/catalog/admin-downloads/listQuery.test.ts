import { describe, expect, it } from 'vitest';
import { activeFilterCount, DEFAULT_FILTERS, filtersOf, queryOf, sortedBy, urlSearchOf } from './listQuery';

describe('filtersOf', () => {
  it('defaults to not archived, all providers, id descending', () => {
    expect(filtersOf(null)).toEqual(DEFAULT_FILTERS);
    expect(filtersOf({ limit: null, sort: null, sortBy: null, archived: null })).toEqual(DEFAULT_FILTERS);
  });

  it('reads the parameters of the address bar', () => {
    expect(
      filtersOf({ search: 'Flyer', archived: 'true', providerIds: '[2,3]', sort: 'ASC', sortBy: 'endAt' }),
    ).toEqual({ search: 'Flyer', archived: true, providerIds: [2, 3], sort: 'ASC', sortBy: 'endAt' });
  });
});

describe('queryOf', () => {
  it('asks for 20 from the offset with every filter', () => {
    expect(queryOf({ ...DEFAULT_FILTERS, providerIds: [4], search: 'Sommer' }, 40)).toEqual({
      limit: 20,
      offset: 40,
      sort: 'DESC',
      sortBy: 'id',
      archived: 'false',
      search: 'Sommer',
      providerIds: '[4]',
    });
  });
});

describe('urlSearchOf', () => {
  it('keeps only what differs from the defaults', () => {
    expect(urlSearchOf(DEFAULT_FILTERS)).toBe('');
    expect(urlSearchOf({ search: 'Flyer Herbst', archived: true, providerIds: [1], sort: 'ASC', sortBy: 'name' })).toBe(
      '?search=Flyer+Herbst&archived=true&providerIds=%5B1%5D&sortBy=name&sort=ASC',
    );
  });
});

describe('sortedBy', () => {
  it('flips the direction of the current column and starts another ascending', () => {
    const byName = sortedBy(DEFAULT_FILTERS, 'name');
    expect(byName).toMatchObject({ sortBy: 'name', sort: 'ASC' });
    expect(sortedBy(byName, 'name')).toMatchObject({ sortBy: 'name', sort: 'DESC' });
    expect(sortedBy(DEFAULT_FILTERS, 'id')).toMatchObject({ sortBy: 'id', sort: 'ASC' });
  });
});

describe('activeFilterCount', () => {
  it('counts the archived switch and a provider choice', () => {
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...DEFAULT_FILTERS, archived: true, providerIds: [1, 2], search: 'x' })).toBe(2);
  });
});
