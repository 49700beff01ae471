import { describe, expect, it } from 'vitest';
import { applyListFilters, DEFAULT_LIST_FILTERS, withStatus } from './listFilters';
import type { ProviderList } from '../../../lib/providerLists';

function list(id: number, name: string, active: boolean): ProviderList {
  return {
    id,
    brevoListId: null,
    name,
    active,
    totalSubscribers: 0,
    totalBlocked: 0,
    deactivatedAt: null,
    reactivatedAt: null,
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    ProviderId: 1,
  };
}

describe('withStatus', () => {
  it('sets one status', () => {
    expect(withStatus(DEFAULT_LIST_FILTERS, 'inactive', false)).toMatchObject({ active: true, inactive: false });
  });

  it('resets to both when neither would be left', () => {
    const onlyActive = withStatus(DEFAULT_LIST_FILTERS, 'inactive', false);
    expect(withStatus(onlyActive, 'active', false)).toMatchObject({ active: true, inactive: true });
  });
});

describe('applyListFilters', () => {
  const lists = [list(1, 'Newsletter Frühling', true), list(3, 'Sommer', false), list(2, 'frühstück', true)];

  it('sorts by id, descending by default', () => {
    expect(applyListFilters(lists, DEFAULT_LIST_FILTERS).map((l) => l.id)).toEqual([3, 2, 1]);
    expect(applyListFilters(lists, { ...DEFAULT_LIST_FILTERS, sort: 'ASC' }).map((l) => l.id)).toEqual([1, 2, 3]);
  });

  it('filters by status and by name, case-insensitively', () => {
    expect(applyListFilters(lists, { ...DEFAULT_LIST_FILTERS, inactive: false }).map((l) => l.id)).toEqual([2, 1]);
    expect(applyListFilters(lists, { ...DEFAULT_LIST_FILTERS, active: false }).map((l) => l.id)).toEqual([3]);
    expect(applyListFilters(lists, { ...DEFAULT_LIST_FILTERS, search: ' FRÜH ' }).map((l) => l.id)).toEqual([2, 1]);
  });
});
