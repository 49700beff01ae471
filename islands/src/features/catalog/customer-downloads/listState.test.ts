import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STATE,
  activeFilterCount,
  apiQuery,
  isDefault,
  sortedBy,
  stateFromQuery,
  toggled,
  urlQuery,
} from './listState';

describe('list state', () => {
  it('reads the URL query, falling back to the defaults for bad values', () => {
    expect(stateFromQuery({})).toEqual(DEFAULT_STATE);
    expect(stateFromQuery({ sortBy: 'evil' as never, sort: 'ASC', providerIds: 'x', searchMethode: 'other' as never })).toEqual(
      DEFAULT_STATE,
    );
    expect(
      stateFromQuery({
        search: 'Flyer',
        searchMethode: 'byFilename',
        archived: 'true',
        providerIds: '[2,5]',
        tagsIds: '[1]',
        sortBy: 'endAt',
        sort: 'ASC',
      }),
    ).toEqual({
      search: 'Flyer',
      method: 'byFilename',
      archived: true,
      providerIds: [2, 5],
      tagIds: [1],
      sortBy: 'endAt',
      sort: 'ASC',
      newSinceVisit: false,
    });
  });

  it('writes only what differs into the address bar, in the server page spelling', () => {
    expect(urlQuery(DEFAULT_STATE)).toBe('');
    const state = {
      search: ' Flyer Süd ',
      method: 'byFilename' as const,
      archived: true,
      providerIds: [2, 5],
      tagIds: [1],
      sortBy: 'endAt' as const,
      sort: 'ASC' as const,
      newSinceVisit: true,
    };
    // The same string as src/app/pages/catalog/customer/list_url.rs writes.
    expect(urlQuery(state, 40)).toBe(
      '?search=Flyer+S%C3%BCd&searchMethode=byFilename&archived=true&providerIds=%5B2%2C5%5D&tagsIds=%5B1%5D&sortBy=endAt&sort=ASC&newSinceVisit=true&anzahl=40',
    );
    expect(stateFromQuery(Object.fromEntries(new URLSearchParams(urlQuery(state))))).toEqual({ ...state, search: 'Flyer Süd' });
  });

  it('asks the API for a page with every parameter', () => {
    expect(apiQuery({ ...DEFAULT_STATE, providerIds: [3] }, 20)).toEqual({
      limit: 20,
      offset: 20,
      sort: 'DESC',
      sortBy: 'id',
      archived: 'false',
      search: '',
      providerIds: '[3]',
      tagsIds: null,
      searchMethode: 'byName',
      newSinceVisit: null,
    });
  });

  it('counts archived, providers and tags as active filters', () => {
    expect(activeFilterCount(DEFAULT_STATE)).toBe(0);
    expect(activeFilterCount({ ...DEFAULT_STATE, archived: true, providerIds: [1, 2], tagIds: [3] })).toBe(3);
    expect(activeFilterCount({ ...DEFAULT_STATE, search: 'x' })).toBe(0);
    expect(isDefault({ ...DEFAULT_STATE, search: 'x' })).toBe(false);
    expect(isDefault({ ...DEFAULT_STATE, search: '  ' })).toBe(true);
  });

  it('sorts a new column ascending and toggles the same one', () => {
    const byName = sortedBy(DEFAULT_STATE, 'name');
    expect([byName.sortBy, byName.sort]).toEqual(['name', 'ASC']);
    expect(sortedBy(byName, 'name').sort).toBe('DESC');
    expect(sortedBy(sortedBy(byName, 'name'), 'name').sort).toBe('ASC');
    expect(sortedBy(sortedBy(byName, 'name'), 'endAt').sort).toBe('ASC');
  });

  it('toggles ids of a multi-select, kept sorted', () => {
    expect(toggled([3], 1, true)).toEqual([1, 3]);
    expect(toggled([1, 3], 1, false)).toEqual([3]);
    expect(toggled([1], 1, true)).toEqual([1]);
  });
});
