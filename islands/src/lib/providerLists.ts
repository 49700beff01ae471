// GET /api/providers/{id}/lists/: a provider's lists (criteria). One call for the provider
// screen's table and the criteria pickers of the download form and the contact editor.
import { apiFetch } from './api';
import type { Schemas } from './apiTypes';

/** A list as the server answers it. */
export type ProviderList = Schemas['List'];

export interface ProviderListQuery {
  limit: number;
  offset: number;
  sort: 'ASC' | 'DESC';
  /** Neither status means both (spec §4). */
  active: boolean;
  inactive: boolean;
  search: string;
}

export async function fetchProviderLists(
  providerId: number,
  query: ProviderListQuery,
  signal?: AbortSignal,
): Promise<{ content: ProviderList[]; count: number }> {
  const both = !query.active && !query.inactive;
  const params = new URLSearchParams({
    limit: String(query.limit),
    offset: String(query.offset),
    sort: query.sort,
    activeStatus: String(both || query.active),
    inactiveStatus: String(both || query.inactive),
    search: query.search,
  });
  const answer = await apiFetch<{ content: ProviderList[]; count: number } | undefined>(
    `/api/providers/${providerId}/lists/?${params.toString()}`,
    { signal },
  );
  return { content: answer?.content ?? [], count: answer?.count ?? 0 };
}

/** The criteria pickers load up to this many lists per provider (spec §9). */
export const CRITERIA_LIMIT = 1000;

/**
 * A criteria picker's choices: the provider's lists, active and inactive, up to CRITERIA_LIMIT,
 * by German name order; `count` is all the provider has (more than shown above the limit).
 */
export async function fetchCriteria(
  providerId: number,
  signal?: AbortSignal,
): Promise<{ content: ProviderList[]; count: number }> {
  const answer = await fetchProviderLists(
    providerId,
    { limit: CRITERIA_LIMIT, offset: 0, sort: 'ASC', active: true, inactive: true, search: '' },
    signal,
  );
  return { content: [...answer.content].sort((a, b) => a.name.localeCompare(b.name, 'de-DE')), count: answer.count };
}
