import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  apiQueryOf,
  DEFAULT_FILTERS,
  filtersOf,
  positiveId,
  sortedBy,
  startOffsetOf,
  urlSearchOf,
  withoutPanelFilters,
  withStatus,
} from './listQuery';

describe('filtersOf', () => {
  it('gives the defaults for an empty or missing query', () => {
    expect(filtersOf(null)).toEqual(DEFAULT_FILTERS);
    expect(
      filtersOf({
        limit: null,
        offset: null,
        sort: null,
        sortBy: null,
        emailBlacklisted: null,
        doubleOptIn: null,
        search: null,
        status: null,
        liste: null,
        providerIds: null,
      }),
    ).toEqual(DEFAULT_FILTERS);
  });

  it('reads every parameter the server echoed', () => {
    expect(
      filtersOf({
        sort: 'asc',
        sortBy: 'email',
        emailBlacklisted: 'true',
        doubleOptIn: 'false',
        search: ' weber ',
        status: 'new',
        liste: '7',
        providerIds: '[1,2]',
      }),
    ).toEqual({
      search: 'weber',
      statusNew: true,
      statusActive: false,
      blocked: 'yes',
      doubleOptIn: 'pending',
      liste: 7,
      providerIds: '[1,2]',
      sort: 'ASC',
      sortBy: 'email',
    });
    expect(filtersOf({ status: 'active', emailBlacklisted: '0', doubleOptIn: '1', liste: 3 })).toMatchObject({
      statusNew: false,
      statusActive: true,
      blocked: 'no',
      doubleOptIn: 'confirmed',
      liste: 3,
    });
  });

  it('falls back to the defaults for values it does not know', () => {
    expect(filtersOf({ sortBy: 'salary', sort: 'sideways', emailBlacklisted: 'vielleicht', liste: 'abc' })).toEqual(
      DEFAULT_FILTERS,
    );
  });
});

describe('positiveId and startOffsetOf', () => {
  it('accept whole positive numbers only', () => {
    expect(positiveId('12')).toBe(12);
    expect(positiveId(12)).toBe(12);
    expect(positiveId('0')).toBeNull();
    expect(positiveId('-3')).toBeNull();
    expect(positiveId('1.5')).toBeNull();
    expect(positiveId(null)).toBeNull();
    expect(startOffsetOf({ offset: '40' })).toBe(40);
    expect(startOffsetOf({ offset: 20 })).toBe(20);
    expect(startOffsetOf({ offset: 'x' })).toBe(0);
    expect(startOffsetOf(null)).toBe(0);
  });
});

describe('apiQueryOf', () => {
  it('asks for one page of 20 with the defaults', () => {
    expect(apiQueryOf(DEFAULT_FILTERS, 0)).toBe('limit=20&offset=0&sort=DESC&sortBy=id');
  });

  it('carries every active filter', () => {
    const params = new URLSearchParams(
      apiQueryOf(
        {
          ...DEFAULT_FILTERS,
          search: 'müller',
          statusActive: false,
          blocked: 'no',
          doubleOptIn: 'confirmed',
          liste: 4,
          sort: 'ASC',
          sortBy: 'createdAt',
        },
        40,
      ),
    );
    expect(Object.fromEntries(params)).toEqual({
      limit: '20',
      offset: '40',
      sort: 'ASC',
      sortBy: 'createdAt',
      search: 'müller',
      status: 'new',
      emailBlacklisted: 'false',
      doubleOptIn: 'true',
      liste: '4',
    });
  });
});

describe('urlSearchOf', () => {
  it('is empty for the defaults', () => {
    expect(urlSearchOf(DEFAULT_FILTERS)).toBe('');
  });

  it('keeps what differs from the defaults', () => {
    expect(
      urlSearchOf({ ...DEFAULT_FILTERS, search: 'a b', blocked: 'yes', doubleOptIn: 'pending', liste: 9, sortBy: 'email', sort: 'ASC' }),
    ).toBe('?search=a+b&emailBlacklisted=true&doubleOptIn=false&liste=9&sortBy=email&sort=ASC');
    expect(urlSearchOf({ ...DEFAULT_FILTERS, statusNew: false })).toBe('?status=active');
  });

  it('round-trips through filtersOf', () => {
    const filters = { ...DEFAULT_FILTERS, search: 'x', statusActive: false, blocked: 'no' as const, liste: 2 };
    const params = Object.fromEntries(new URLSearchParams(urlSearchOf(filters)));
    expect(filtersOf(params)).toEqual(filters);
  });
});

describe('status, panel and sorting', () => {
  it('turns both statuses back on when neither is left (spec §4)', () => {
    const onlyNew = withStatus(DEFAULT_FILTERS, 'active', false);
    expect(onlyNew).toMatchObject({ statusNew: true, statusActive: false });
    expect(withStatus(onlyNew, 'new', false)).toMatchObject({ statusNew: true, statusActive: true });
    expect(withStatus(onlyNew, 'active', true)).toMatchObject({ statusNew: true, statusActive: true });
  });

  it('counts and resets the panel filters, keeping search, list and sorting', () => {
    const filters = {
      ...DEFAULT_FILTERS,
      search: 's',
      statusNew: false,
      blocked: 'yes' as const,
      doubleOptIn: 'confirmed' as const,
      liste: 5,
      sortBy: 'email' as const,
    };
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
    expect(activeFilterCount(filters)).toBe(3);
    expect(withoutPanelFilters(filters)).toEqual({ ...DEFAULT_FILTERS, search: 's', liste: 5, sortBy: 'email' });
  });

  it('flips the direction of the same column and starts another ascending', () => {
    const byEmail = sortedBy(DEFAULT_FILTERS, 'email');
    expect(byEmail).toMatchObject({ sortBy: 'email', sort: 'ASC' });
    expect(sortedBy(byEmail, 'email')).toMatchObject({ sortBy: 'email', sort: 'DESC' });
    expect(sortedBy(DEFAULT_FILTERS, 'id')).toMatchObject({ sortBy: 'id', sort: 'ASC' });
  });
});
