import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFetch, jsonResponse } from '../test/fetchMock';
import { CRITERIA_LIMIT, fetchCriteria, fetchProviderLists } from './providerLists';
import type { ProviderList } from './providerLists';

afterEach(() => vi.unstubAllGlobals());

function list(id: number, name: string, active = true): ProviderList {
  return {
    id,
    brevoListId: null,
    name,
    active,
    totalSubscribers: 0,
    totalBlocked: 0,
    deactivatedAt: null,
    reactivatedAt: null,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ProviderId: 3,
  };
}

describe('fetchProviderLists', () => {
  it('asks for one page with its filters', async () => {
    const { requests } = installFetch(() => jsonResponse(200, { content: [list(1, 'A')], count: 7 }));
    const page = await fetchProviderLists(3, { limit: 20, offset: 40, sort: 'DESC', active: true, inactive: false, search: 'Süd' });
    expect(page).toEqual({ content: [list(1, 'A')], count: 7 });
    expect(requests[0]?.path).toBe('/api/providers/3/lists/');
    expect(Object.fromEntries(requests[0]?.url.searchParams ?? [])).toEqual({
      limit: '20',
      offset: '40',
      sort: 'DESC',
      activeStatus: 'true',
      inactiveStatus: 'false',
      search: 'Süd',
    });
  });

  it('asks for both statuses when neither is chosen', async () => {
    const { requests } = installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    await fetchProviderLists(3, { limit: 20, offset: 0, sort: 'ASC', active: false, inactive: false, search: '' });
    expect(requests[0]?.url.searchParams.get('activeStatus')).toBe('true');
    expect(requests[0]?.url.searchParams.get('inactiveStatus')).toBe('true');
  });
});

describe('fetchCriteria', () => {
  it('loads every status up to the limit, by German name order', async () => {
    const { requests } = installFetch(() =>
      jsonResponse(200, { content: [list(1, 'Zeitung'), list(2, 'Ärzte', false), list(3, 'Bäcker')], count: 1200 }),
    );
    const answer = await fetchCriteria(3);
    expect(answer.content.map((l) => l.name)).toEqual(['Ärzte', 'Bäcker', 'Zeitung']);
    expect(answer.count).toBe(1200);
    expect(requests[0]?.url.searchParams.get('limit')).toBe(String(CRITERIA_LIMIT));
    expect(requests[0]?.url.searchParams.get('inactiveStatus')).toBe('true');
  });
});
