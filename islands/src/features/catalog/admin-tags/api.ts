// The calls of the tag screen (issue 25): /api/tags, admin only.
import { apiFetch } from '../../../lib/api';
import type { Schemas } from '../../../lib/apiTypes';

export type TagView = Schemas['TagView'];
export type TagInput = Schemas['TagInput'];

export function fetchTags(signal?: AbortSignal): Promise<TagView[]> {
  return apiFetch<TagView[]>('/api/tags', { signal });
}

export function createTag(input: TagInput): Promise<TagView> {
  return apiFetch<TagView>('/api/tags', { method: 'POST', body: input });
}

export function updateTag(id: number, input: TagInput): Promise<TagView> {
  return apiFetch<TagView>(`/api/tags/${id}`, { method: 'PUT', body: input });
}

export function deleteTag(id: number): Promise<unknown> {
  return apiFetch<unknown>(`/api/tags/${id}`, { method: 'DELETE' });
}
