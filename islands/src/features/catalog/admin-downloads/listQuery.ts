// Filters and sorting of the admin downloads list (spec §2, §3 "Paging"/"Filters", §4) and
// their translation to the API's query and the address bar.
import { idsParam, parseIds, toSearchParams } from '../../../lib/downloads';
import type { ListQuery, SortBy } from '../../../lib/downloads';

export const PAGE_SIZE = 20;

export interface ListFilters {
  search: string;
  archived: boolean;
  providerIds: number[];
  sort: 'ASC' | 'DESC';
  sortBy: SortBy;
}

/** Reset returns here: not archived, all providers, no search, id descending. */
export const DEFAULT_FILTERS: ListFilters = {
  search: '',
  archived: false,
  providerIds: [],
  sort: 'DESC',
  sortBy: 'id',
};

const SORTABLE: readonly SortBy[] = ['id', 'provider', 'name', 'startAt', 'endAt', 'updatedAt'];

/** The filters of a query as the server echoed it (the URL's parameters); defaults for the rest. */
export function filtersOf(query: ListQuery | null | undefined): ListFilters {
  const sortBy = query?.sortBy && SORTABLE.includes(query.sortBy) ? query.sortBy : DEFAULT_FILTERS.sortBy;
  return {
    search: query?.search ?? '',
    archived: query?.archived === 'true' || query?.archived === '1',
    providerIds: parseIds(query?.providerIds),
    sort: query?.sort?.toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
    sortBy,
  };
}

/** The API query for one page. */
export function queryOf(filters: ListFilters, offset: number): ListQuery {
  return {
    limit: PAGE_SIZE,
    offset,
    sort: filters.sort,
    sortBy: filters.sortBy,
    archived: String(filters.archived),
    search: filters.search,
    providerIds: idsParam(filters.providerIds),
  };
}

/** The address bar's query string (`?…`, or '' for the defaults), so a reload shows the same list. */
export function urlSearchOf(filters: ListFilters): string {
  const params = toSearchParams({
    search: filters.search,
    archived: filters.archived ? 'true' : null,
    providerIds: idsParam(filters.providerIds),
    sortBy: filters.sortBy === DEFAULT_FILTERS.sortBy ? null : filters.sortBy,
    sort: filters.sort === DEFAULT_FILTERS.sort ? null : filters.sort,
  });
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Filters of the filter panel that differ from the defaults (archived, providers). */
export function activeFilterCount(filters: ListFilters): number {
  return (filters.archived ? 1 : 0) + (filters.providerIds.length > 0 ? 1 : 0);
}

/** A click on a column header: the same column flips DESC ⇄ ASC, another starts ascending. */
export function sortedBy(filters: ListFilters, column: SortBy): ListFilters {
  if (filters.sortBy === column) return { ...filters, sort: filters.sort === 'DESC' ? 'ASC' : 'DESC' };
  return { ...filters, sortBy: column, sort: 'ASC' };
}
