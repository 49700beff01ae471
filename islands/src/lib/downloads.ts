// Download packages as the server sends them (spec §3, openapi.json "Download") and the calls
// of spec §7 "Downloads and files". Shared by the customer page and the admin screens; each
// feature keeps its own state and components.
import { apiFetch, loginUrl } from './api';
import type { ApiInit } from './api';
import type { Narrowed, Schemas } from './apiTypes';
import { navigateTo } from './navigate';

/** Status badge of spec §4, computed by the server in German calendar days. */
export type Badge = Schemas['Badge'];
export type UploadRef = Schemas['UploadRef'];
export type ProviderRef = Schemas['ProviderRef'];
/** A file of a package. `id` is the stored upload's id; `path` the site-relative URL. */
export type DownloadFile = Schemas['DownloadFile'];
export type ListRef = Schemas['ListRef'];
export type Download = Schemas['Download'];
/** What is new since the customer's previous visit (`null` on a first visit). */
export type NewSinceVisit = Schemas['NewSinceVisit'];
export type DownloadPage = Schemas['DownloadPage'];
/** A file tag as the islands show it (the page props carry these fields). */
export type Tag = Pick<Schemas['Tag'], 'id' | 'name' | 'icon'>;

/** The list parameters of spec §3 "Paging" and "Filters", as in the URL and the API. */
export interface ListQuery {
  limit?: number | null;
  offset?: number | null;
  sort?: 'ASC' | 'DESC' | null;
  sortBy?: SortBy | null;
  archived?: string | null;
  search?: string | null;
  /** JSON array of ids, e.g. `[1,2]`. */
  providerIds?: string | null;
  /** JSON array of ids. */
  tagsIds?: string | null;
  searchMethode?: 'byName' | 'byFilename' | null;
  /** Customer list: `true` shows only what is new since the previous visit. */
  newSinceVisit?: string | null;
}

/** The sortable columns of spec §2. */
export type SortBy = 'id' | 'provider' | 'name' | 'startAt' | 'endAt' | 'updatedAt';

export type UploadRequirements = Schemas['UploadRequirements'];
export type StoredUpload = Schemas['StoredUpload'];
/** `POST /api/upload/`: the first file's fields and every stored file (an archive becomes many). */
export type UploadAnswer = Schemas['UploadAnswer'];

/** The query as URL parameters (empty values left out), for the API and the address bar. */
export function toSearchParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  return params;
}

/** The ids of a JSON-array parameter (`[1,2]`); an empty list for anything else. */
export function parseIds(value: string | null | undefined): number[] {
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

/** `[1,2]`, or null for no ids (no filter). */
export function idsParam(ids: readonly number[]): string | null {
  return ids.length === 0 ? null : JSON.stringify(ids);
}

export function fetchAdminDownloads(query: ListQuery, signal?: AbortSignal): Promise<DownloadPage> {
  return apiFetch<DownloadPage>(`/api/downloads/?${toSearchParams(query).toString()}`, { signal });
}

export function fetchCustomerDownloads(query: ListQuery, signal?: AbortSignal): Promise<DownloadPage> {
  return apiFetch<DownloadPage>(`/api/downloads/contact/?${toSearchParams(query).toString()}`, { signal });
}

export function fetchDownload(id: number, signal?: AbortSignal): Promise<Download> {
  return apiFetch<Download>(`/api/download/${id}`, { signal });
}

export function fetchTags(signal?: AbortSignal): Promise<Tag[]> {
  return apiFetch<Tag[]>('/api/downloads/tags/', { signal });
}

export function fetchUploadRequirements(signal?: AbortSignal): Promise<UploadRequirements> {
  return apiFetch<UploadRequirements>('/api/upload-requirements/', { signal });
}

/** A file entry as the create and edit calls take it (the object form of the schema's, with
 * numeric ids). */
export type FileInput = Extract<Schemas['PackageFileInput'], { id: unknown }> & {
  id: number;
  tagsIds?: number[];
};

/** Body of `POST /api/download/` and `PUT /api/download/{id}` (spec §7). */
export type DownloadInput = Narrowed<
  Schemas['DownloadInput'],
  {
    name: string;
    startAt: string;
    endAt: string;
    ProviderId: number | null;
    listsIds: number[];
    uncheckedListsIds?: number[];
    uploadsToInsert?: FileInput[];
    Uploads?: FileInput[];
    uploadsToDelete?: number[];
  }
>;

function write<T>(path: string, method: string, body?: unknown): Promise<T> {
  const init: ApiInit = { method };
  if (body !== undefined) init.body = body;
  return apiFetch<T>(path, init);
}

export function createDownload(input: DownloadInput): Promise<Download> {
  return write<Download>('/api/download/', 'POST', input);
}

export function updateDownload(id: number, input: DownloadInput): Promise<Download> {
  return write<Download>(`/api/download/${id}`, 'PUT', input);
}

/** A copy named "… (Kopie)", valid in the next month, sharing the stored files. */
export function duplicateDownload(id: number): Promise<Download> {
  return write<Download>('/api/download/duplicate', 'POST', { id });
}

export function changeArchiveStatus(id: number): Promise<Schemas['ArchiveStatus']> {
  return write<Schemas['ArchiveStatus']>(`/api/download/changeArchiveStatus/${id}`, 'PATCH');
}

export function deleteDownload(id: number): Promise<Schemas['DownloadDeleted']> {
  return write<Schemas['DownloadDeleted']>(`/api/download/${id}`, 'DELETE');
}

/** The server-streamed ZIP of a whole package (resumable, exact length). */
export function packageZipUrl(downloadId: number): string {
  return `/api/download/${downloadId}/zip`;
}

/** The server-streamed ZIP of chosen files across packages. */
export function filesZipUrl(files: readonly { downloadId: number; id: number }[]): string {
  return `/api/downloads/zip?files=${files.map((f) => `${f.downloadId}:${f.id}`).join(',')}`;
}

/** Why an upload ended without a stored file. */
export class UploadFailure extends Error {
  readonly status: number;
  /** The server's answer (413: fileName, limitSizeMB; 422: filesOverExtLimit, …). */
  readonly body: Record<string, unknown>;

  constructor(status: number, message: string, body: Record<string, unknown>) {
    super(message);
    this.name = 'UploadFailure';
    this.status = status;
    this.body = body;
  }
}

/**
 * Uploads one file (`files[0]`) with XMLHttpRequest, whose upload events give the byte
 * progress fetch cannot. `onProgress(sent, total)` is called as bytes leave; `signal` cancels.
 */
export function uploadFile(
  file: File,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload/');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as unknown as UploadAnswer);
      } else {
        if (xhr.status === 401) navigateTo(loginUrl());
        const message = typeof body.message === 'string' ? body.message : 'Ein unerwarteter Fehler ist aufgetreten!';
        reject(new UploadFailure(xhr.status, message, body));
      }
    };
    xhr.onerror = () => reject(new UploadFailure(0, 'Der Server ist nicht erreichbar.', {}));
    xhr.onabort = () => reject(new DOMException('Upload abgebrochen', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('files[0]', file, file.name);
    xhr.send(form);
  });
}
