// The one call of the download screens that lib/downloads.ts does not have: a provider's
// criteria (lists) for the picker, up to 1000 (spec §9).
import { apiFetch } from '../../lib/api';
import type { ListRef } from '../../lib/downloads';

export const CRITERIA_LIMIT = 1000;

export async function fetchProviderCriteria(
  providerId: number,
  signal?: AbortSignal,
): Promise<{ content: ListRef[]; count: number }> {
  const params = new URLSearchParams({
    limit: String(CRITERIA_LIMIT),
    offset: '0',
    sort: 'ASC',
    activeStatus: 'true',
    inactiveStatus: 'true',
    search: '',
  });
  const answer = await apiFetch<{ content: ListRef[]; count: number }>(
    `/api/providers/${providerId}/lists/?${params.toString()}`,
    { signal },
  );
  return {
    content: answer.content.map(({ id, name, active }) => ({ id, name, active })),
    count: answer.count,
  };
}
