// Search, filters and sorting of the admin contacts table (spec §2 "Admin contacts", §3
// "Paging", §4) and their translation to the API's query and the address bar.
import type { ContactsQuery } from './types';

export const PAGE_SIZE = 20;

export type SortBy = 'id' | 'customerNumber' | 'email' | 'createdAt' | 'updatedAt';
/** The blocked filter: all, only blocked, only not blocked (`emailBlacklisted`). */
export type BlockedFilter = 'all' | 'yes' | 'no';
/** The double opt-in filter: all, confirmed, pending (`doubleOptIn`). */
export type DoubleOptInFilter = 'all' | 'confirmed' | 'pending';

export interface ContactFilters {
  search: string;
  /** Created in the last 7 days. */
  statusNew: boolean;
  /** Created earlier. */
  statusActive: boolean;
  blocked: BlockedFilter;
  doubleOptIn: DoubleOptInFilter;
  /** Only the contacts on this list (`?liste=`, the provider screen's "show contacts"). */
  liste: number | null;
  /** Passed through as the URL had it (JSON array of provider ids), never edited here. */
  providerIds: string | null;
  sort: 'ASC' | 'DESC';
  sortBy: SortBy;
}

/** No filter, id descending (spec §4). */
export const DEFAULT_FILTERS: ContactFilters = {
  search: '',
  statusNew: true,
  statusActive: true,
  blocked: 'all',
  doubleOptIn: 'all',
  liste: null,
  providerIds: null,
  sort: 'DESC',
  sortBy: 'id',
};

const SORTABLE: readonly SortBy[] = ['id', 'customerNumber', 'email', 'createdAt', 'updatedAt'];

function text(value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

function flag(value: string | null | undefined): boolean | null {
  const v = text(value);
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return null;
}

/** A positive whole number, or null. */
export function positiveId(value: string | number | null | undefined): number | null {
  const v = text(value);
  if (!/^\d+$/.test(v)) return null;
  const id = Number(v);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The filters of the query the server read from the URL; defaults for anything else. */
export function filtersOf(query: ContactsQuery | null | undefined): ContactFilters {
  const sortBy = SORTABLE.find((column) => column === text(query?.sortBy)) ?? DEFAULT_FILTERS.sortBy;
  const status = text(query?.status);
  const blocked = flag(query?.emailBlacklisted);
  const confirmed = flag(query?.doubleOptIn);
  return {
    search: text(query?.search),
    statusNew: status !== 'active',
    statusActive: status !== 'new',
    blocked: blocked === null ? 'all' : blocked ? 'yes' : 'no',
    doubleOptIn: confirmed === null ? 'all' : confirmed ? 'confirmed' : 'pending',
    liste: positiveId(query?.liste),
    providerIds: text(query?.providerIds) || null,
    sort: text(query?.sort).toUpperCase() === 'ASC' ? 'ASC' : 'DESC',
    sortBy,
  };
}

/** `new`, `active`, or null for both. */
function statusParam(filters: ContactFilters): string | null {
  if (filters.statusNew && !filters.statusActive) return 'new';
  if (filters.statusActive && !filters.statusNew) return 'active';
  return null;
}

function blockedParam(filters: ContactFilters): string | null {
  return filters.blocked === 'all' ? null : String(filters.blocked === 'yes');
}

function doubleOptInParam(filters: ContactFilters): string | null {
  return filters.doubleOptIn === 'all' ? null : String(filters.doubleOptIn === 'confirmed');
}

function searchParams(entries: Record<string, string | number | null>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(entries)) {
    if (value === null || value === '') continue;
    params.set(key, String(value));
  }
  return params;
}

/** The API query string (without `?`) for one page from `offset`. */
export function apiQueryOf(filters: ContactFilters, offset: number): string {
  return searchParams({
    limit: PAGE_SIZE,
    offset,
    sort: filters.sort,
    sortBy: filters.sortBy,
    search: filters.search,
    status: statusParam(filters),
    emailBlacklisted: blockedParam(filters),
    doubleOptIn: doubleOptInParam(filters),
    liste: filters.liste,
    providerIds: filters.providerIds,
  }).toString();
}

/** The address bar's query string (`?…`, or '' for the defaults), so a reload shows the same list. */
export function urlSearchOf(filters: ContactFilters): string {
  const params = searchParams({
    search: filters.search,
    status: statusParam(filters),
    emailBlacklisted: blockedParam(filters),
    doubleOptIn: doubleOptInParam(filters),
    liste: filters.liste,
    providerIds: filters.providerIds,
    sortBy: filters.sortBy === DEFAULT_FILTERS.sortBy ? null : filters.sortBy,
    sort: filters.sort === DEFAULT_FILTERS.sort ? null : filters.sort,
  }).toString();
  return params === '' ? '' : `?${params}`;
}

/** Filters of the filter panel that differ from the defaults (status, blocked, double opt-in). */
export function activeFilterCount(filters: ContactFilters): number {
  return (
    (statusParam(filters) !== null ? 1 : 0) +
    (filters.blocked !== 'all' ? 1 : 0) +
    (filters.doubleOptIn !== 'all' ? 1 : 0)
  );
}

/** The filter panel back to its defaults; search, list and sorting stay. */
export function withoutPanelFilters(filters: ContactFilters): ContactFilters {
  return { ...filters, statusNew: true, statusActive: true, blocked: 'all', doubleOptIn: 'all' };
}

/**
 * One status checkbox changed. Neither new nor active means no filter, so both come back on
 * (spec §4 "A toolbar status filter with neither active nor inactive resets to both").
 */
export function withStatus(filters: ContactFilters, status: 'new' | 'active', on: boolean): ContactFilters {
  const next =
    status === 'new' ? { ...filters, statusNew: on } : { ...filters, statusActive: on };
  if (!next.statusNew && !next.statusActive) return { ...next, statusNew: true, statusActive: true };
  return next;
}

/** A click on a column header: the same column flips DESC ⇄ ASC, another starts ascending. */
export function sortedBy(filters: ContactFilters, column: SortBy): ContactFilters {
  if (filters.sortBy === column) return { ...filters, sort: filters.sort === 'DESC' ? 'ASC' : 'DESC' };
  return { ...filters, sortBy: column, sort: 'ASC' };
}

/** The offset the first page of the props started at (a URL may carry one). */
export function startOffsetOf(query: ContactsQuery | null | undefined): number {
  const v = text(query?.offset);
  return /^\d+$/.test(v) ? Number(v) : 0;
}
