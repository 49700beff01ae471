// The criteria screen's filters, and applying them in memory (after a sync the server answers
// with all of the provider's lists; the table keeps its filters).
import type { ProviderList } from '../../../lib/providerLists';

export type SortOrder = 'ASC' | 'DESC';

export interface ListFilters {
  search: string;
  active: boolean;
  inactive: boolean;
  sort: SortOrder;
}

export const DEFAULT_LIST_FILTERS: ListFilters = { search: '', active: true, inactive: true, sort: 'DESC' };

/** Sets one status checkbox; neither active nor inactive resets to both (spec §4). */
export function withStatus(filters: ListFilters, status: 'active' | 'inactive', checked: boolean): ListFilters {
  const next = { ...filters, [status]: checked };
  return next.active || next.inactive ? next : { ...next, active: true, inactive: true };
}

/** The lists matching the filters (name contains the search, case-insensitive), sorted by id. */
export function applyListFilters(lists: readonly ProviderList[], filters: ListFilters): ProviderList[] {
  const search = filters.search.trim().toLocaleLowerCase('de-DE');
  const both = filters.active === filters.inactive;
  return lists
    .filter((list) => both || (filters.active ? list.active : !list.active))
    .filter((list) => search === '' || list.name.toLocaleLowerCase('de-DE').includes(search))
    .sort((a, b) => (filters.sort === 'ASC' ? a.id - b.id : b.id - a.id));
}
