// Calls of the provider area (spec §7 "Providers, folders, lists"), all through lib/api.ts.
import { apiFetch } from '../../../lib/api';
import { normalizeList, normalizeProvider } from './types';
import { fetchProviderLists } from '../../../lib/providerLists';
import type { Schemas } from '../../../lib/apiTypes';
import type { ProviderList, ProviderListQuery } from '../../../lib/providerLists';
import type { Folder, Paged, Provider, ProviderPayload, RawProvider, Upload } from './types';

export const PAGE_SIZE = 20;
export const FOLDER_PAGE_SIZE = 50;
/** Safety stop for folder paging (50 × 200 = 10 000 folders). */
const MAX_FOLDER_PAGES = 200;

export async function fetchProviders(
  params: { limit: number; offset: number; search?: string },
  signal?: AbortSignal,
): Promise<Paged<Provider>> {
  const query = new URLSearchParams({
    limit: String(params.limit),
    offset: String(params.offset),
    search: params.search ?? '',
  });
  const answer = await apiFetch<Paged<RawProvider>>(`/api/providers/?${query.toString()}`, { signal });
  return { content: answer.content.map(normalizeProvider), count: answer.count };
}

export async function createProvider(payload: ProviderPayload): Promise<Provider> {
  return normalizeProvider(await apiFetch<RawProvider>('/api/providers/', { method: 'POST', body: payload }));
}

export async function updateProvider(id: number, payload: ProviderPayload): Promise<Provider> {
  return normalizeProvider(await apiFetch<RawProvider>(`/api/providers/${id}`, { method: 'PUT', body: payload }));
}

export async function deleteProvider(id: number, deleteBrevoFolders: boolean): Promise<void> {
  await apiFetch<unknown>(`/api/providers/${id}/?deleteBrevoFolders=${String(deleteBrevoFolders)}`, {
    method: 'DELETE',
  });
}

/** Every marketing folder, all pages of 50. */
export async function fetchAllFolders(signal?: AbortSignal): Promise<Folder[]> {
  const folders: Folder[] = [];
  for (let page = 0; page < MAX_FOLDER_PAGES; page += 1) {
    const query = new URLSearchParams({ limit: String(FOLDER_PAGE_SIZE), offset: String(folders.length) });
    const answer = await apiFetch<{ folders: Folder[] | null; count: number }>(
      `/api/brevo/folders/?${query.toString()}`,
      { signal },
    );
    const batch = answer.folders ?? [];
    folders.push(...batch);
    if (batch.length === 0 || folders.length >= answer.count) break;
  }
  return folders;
}

/** Uploads one image (multipart field files[0]) and answers with the stored upload. */
export async function uploadImage(file: File): Promise<Upload> {
  const form = new FormData();
  form.append('files[0]', file, file.name);
  return apiFetch<Upload>('/api/upload/', { method: 'POST', body: form });
}

/** A page of the provider screen's table. */
export async function fetchLists(
  providerId: number,
  query: Omit<ProviderListQuery, 'limit'>,
  signal?: AbortSignal,
): Promise<Paged<ProviderList>> {
  const answer = await fetchProviderLists(providerId, { ...query, limit: PAGE_SIZE }, signal);
  return { content: answer.content.map(normalizeList), count: answer.count };
}

export async function createList(providerId: number, name: string): Promise<ProviderList> {
  return normalizeList(
    await apiFetch<ProviderList>(`/api/providers/${providerId}/lists`, { method: 'POST', body: { name } }),
  );
}

export async function renameList(id: number, name: string): Promise<ProviderList> {
  return normalizeList(await apiFetch<ProviderList>(`/api/lists/name/${id}`, { method: 'PATCH', body: { name } }));
}

export type StatusChange =
  | { kind: 'changed'; list: ProviderList }
  /** code change_folder_warning: the provider lacks its marketing folders; nothing changed. */
  | { kind: 'folder_warning'; message: string }
  /** A 200 answer of an unknown shape. */
  | { kind: 'unknown'; code: string | null; message: string };

/** Activates or deactivates a list. A change_folder_warning answer comes with HTTP 200. */
export async function setListStatus(id: number, active: boolean): Promise<StatusChange> {
  const answer = await apiFetch<{ code?: string; content?: ProviderList; message?: string } | undefined>(
    `/api/lists/status/${id}`,
    { method: 'PATCH', body: { active } },
  );
  const code = answer?.code ?? null;
  if (code === 'change_folder_warning') return { kind: 'folder_warning', message: answer?.message ?? '' };
  if (answer?.content && (code === 'status_changed' || code === null)) {
    return { kind: 'changed', list: normalizeList(answer.content) };
  }
  return { kind: 'unknown', code, message: answer?.message ?? '' };
}

export async function deleteList(id: number): Promise<void> {
  await apiFetch<unknown>(`/api/lists/${id}`, { method: 'DELETE' });
}

/** Brings the provider's lists and subscriber counts up to date from the marketing service. */
export async function syncProviderLists(providerId: number): Promise<ProviderList[]> {
  const answer = await apiFetch<{ content: ProviderList[] | null }>(`/api/sync/providers/${providerId}`);
  return (answer.content ?? []).map(normalizeList);
}

/** A list inside a marketing folder, as GET /api/brevo/folder/{id}/lists/ answers it. */
export type FolderList = Schemas['BrevoList'];

/** One page (50, ascending) of the lists inside a marketing folder. */
export async function fetchFolderLists(
  folderId: number,
  offset: number,
  signal?: AbortSignal,
): Promise<{ lists: FolderList[]; count: number }> {
  const query = new URLSearchParams({
    limit: String(FOLDER_PAGE_SIZE),
    offset: String(offset),
    sort: 'ASC',
  });
  const answer = await apiFetch<{ lists?: FolderList[] | null; count?: number } | undefined>(
    `/api/brevo/folder/${folderId}/lists/?${query.toString()}`,
    { signal },
  );
  const lists = answer?.lists ?? [];
  return { lists, count: typeof answer?.count === 'number' ? answer.count : lists.length };
}

/** Most lists of one provider read at once (spec §9: criteria panels load up to 1000). */
export const ALL_LISTS_LIMIT = 1000;

/** The marketing-service ids of all lists of a provider (both statuses, pages of 1000). */
export async function fetchProviderBrevoIds(providerId: number, signal?: AbortSignal): Promise<Set<number>> {
  const ids = new Set<number>();
  let loaded = 0;
  for (let page = 0; page < 50; page += 1) {
    const params = new URLSearchParams({
      limit: String(ALL_LISTS_LIMIT),
      offset: String(loaded),
      sort: 'ASC',
      activeStatus: 'true',
      inactiveStatus: 'true',
    });
    const answer = await apiFetch<Paged<ProviderList> | undefined>(
      `/api/providers/${providerId}/lists/?${params.toString()}`,
      { signal },
    );
    const batch = answer?.content ?? [];
    for (const list of batch) {
      const id = brevoIdOf(list);
      if (id !== null) ids.add(id);
    }
    loaded += batch.length;
    if (batch.length === 0 || loaded >= (answer?.count ?? 0)) break;
  }
  return ids;
}

/** The marketing-service id of a criterion (the server names it brevoListId and brevoId). */
export function brevoIdOf(list: ProviderList): number | null {
  const raw = list as ProviderList & { brevoId?: number | null };
  if (typeof raw.brevoListId === 'number') return raw.brevoListId;
  return typeof raw.brevoId === 'number' ? raw.brevoId : null;
}

/** Takes over an existing list of the marketing service as a new criterion of the provider. */
export async function importFolderList(providerId: number, list: Pick<FolderList, 'id' | 'name'>): Promise<ProviderList> {
  const body: Schemas['NewList'] = { brevoListId: list.id, name: list.name };
  return normalizeList(await apiFetch<ProviderList>(`/api/providers/${providerId}/lists`, { method: 'POST', body }));
}
