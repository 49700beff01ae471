// The customer list's search, filters and sort (spec §2, §3 "Filters", §4 "Sorting"), and
// their two spellings: the API query and the address bar. The address bar keeps them so a
// reload or a shared link shows the same list; the server page reads the same parameters.
import { idsParam, parseIds, toSearchParams } from '../../../lib/downloads';
import type { ListQuery, SortBy } from '../../../lib/downloads';
import { PAGE_SIZE } from './constants';

export type SearchMethod = 'byName' | 'byFilename';
export type SortOrder = 'ASC' | 'DESC';
/** The columns a customer can sort by (spec §2); `null` is the default, newest first by id. */
export type SortColumn = Exclude<SortBy, 'id'>;

export interface ListState {
  search: string;
  method: SearchMethod;
  archived: boolean;
  /** Empty: all providers. */
  providerIds: number[];
  /** Empty: no tag filter. */
  tagIds: number[];
  sortBy: SortColumn | null;
  sort: SortOrder;
  /** Only what is new since the user's previous visit. */
  newSinceVisit: boolean;
}

/** What the reset button returns to (spec §4): not archived, no providers, no tags, search by name. */
export const DEFAULT_STATE: ListState = {
  search: '',
  method: 'byName',
  archived: false,
  providerIds: [],
  tagIds: [],
  sortBy: null,
  sort: 'DESC',
  newSinceVisit: false,
};

const SORT_COLUMNS: readonly SortColumn[] = ['provider', 'name', 'startAt', 'endAt', 'updatedAt'];

function sortColumn(value: string | null | undefined): SortColumn | null {
  return SORT_COLUMNS.find((column) => column === value) ?? null;
}

/** The state a query describes; unknown or malformed values fall back to the defaults. */
export function stateFromQuery(query: ListQuery | null | undefined): ListState {
  if (!query) return DEFAULT_STATE;
  const sortBy = sortColumn(query.sortBy);
  return {
    search: typeof query.search === 'string' ? query.search : '',
    method: query.searchMethode === 'byFilename' ? 'byFilename' : 'byName',
    archived: query.archived === 'true' || query.archived === '1',
    providerIds: parseIds(query.providerIds),
    tagIds: parseIds(query.tagsIds),
    sortBy,
    sort: sortBy !== null && query.sort?.toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
    newSinceVisit: query.newSinceVisit === 'true' || query.newSinceVisit === '1',
  };
}

/** The API query for one page of the list. */
export function apiQuery(state: ListState, offset: number, limit = PAGE_SIZE): ListQuery {
  return {
    limit,
    offset,
    sort: state.sort,
    sortBy: state.sortBy ?? 'id',
    archived: String(state.archived),
    search: state.search.trim(),
    providerIds: idsParam(state.providerIds),
    tagsIds: idsParam(state.tagIds),
    searchMethode: state.method,
    newSinceVisit: state.newSinceVisit ? 'true' : null,
  };
}

/**
 * The address-bar query of a state: only what differs from the defaults, so the plain page
 * stays `/user/downloads`. `shown` above one page is kept as `anzahl` (the server page's
 * "more rows" parameter), so a reload shows as many rows again.
 */
export function urlQuery(state: ListState, shown = PAGE_SIZE): string {
  const query: ListQuery = {
    search: state.search.trim() || null,
    searchMethode: state.method === 'byFilename' ? state.method : null,
    archived: state.archived ? 'true' : null,
    providerIds: idsParam(state.providerIds),
    tagsIds: idsParam(state.tagIds),
    sortBy: state.sortBy,
    sort: state.sortBy ? state.sort : null,
    newSinceVisit: state.newSinceVisit ? 'true' : null,
  };
  const params = toSearchParams(query);
  if (shown > PAGE_SIZE) params.set('anzahl', String(shown));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Active filters for the toolbar's count: archived, providers and tags (the search box is visible anyway). */
export function activeFilterCount(state: ListState): number {
  return (state.archived ? 1 : 0) + (state.providerIds.length > 0 ? 1 : 0) + (state.tagIds.length > 0 ? 1 : 0);
}

/** Whether the state differs from what the reset button returns to. */
export function isDefault(state: ListState): boolean {
  return (
    state.search.trim() === '' &&
    state.method === DEFAULT_STATE.method &&
    activeFilterCount(state) === 0 &&
    state.sortBy === null &&
    !state.newSinceVisit
  );
}

/** Sorting by a column (spec §4): a new column starts ascending, the same column toggles. */
export function sortedBy(state: ListState, column: SortColumn): ListState {
  const sort: SortOrder = state.sortBy === column && state.sort === 'ASC' ? 'DESC' : 'ASC';
  return { ...state, sortBy: column, sort };
}

/** Adds or removes an id of a multi-select filter. */
export function toggled(ids: readonly number[], id: number, on: boolean): number[] {
  const rest = ids.filter((other) => other !== id);
  return on ? [...rest, id].sort((a, b) => a - b) : rest;
}
