// Providers, their lists (criteria) and marketing folders as the server sends them (spec §3).
import type { Narrowed, Present, Schemas } from '../../../lib/apiTypes';
import type { ProviderList } from '../../../lib/providerLists';

export type Upload = Schemas['UploadRef'];

/** A provider as the islands use it: allowedRoles parsed, optional parts present (null if none). */
export type Provider = Present<Schemas['Provider']>;

/** A provider as it may arrive: allowedRoles possibly as a JSON string (spec §3). */
export type RawProvider = Omit<Schemas['Provider'], 'allowedRoles'> & { allowedRoles?: unknown };

export interface Paged<T> {
  content: T[];
  count: number;
}

export type Folder = Schemas['Folder'];

/** A marketing-folder choice: create automatically, none, or an existing folder's id. */
export type FolderChoice = 'auto' | number | null;

/** Body of POST /api/providers/ and PUT /api/providers/{id}. */
export type ProviderPayload = Narrowed<
  Schemas['ProviderInput'],
  {
    name: string;
    allowedRoles: string[];
    brevoActiveFolderId: FolderChoice;
    brevoInactiveFolderId: FolderChoice;
    uploadId: number | null;
  }
>;

function isArray(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

function cleanRoles(values: unknown[]): string[] {
  const roles: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const role = value.trim();
    if (role !== '' && !roles.includes(role)) roles.push(role);
  }
  return roles;
}

/**
 * allowedRoles as a list of role names, whatever shape it arrived in: an array, a JSON string
 * of an array (`'["GS-A","GS-B"]'`), a plain comma-separated string, or nothing.
 */
export function parseAllowedRoles(value: unknown): string[] {
  if (isArray(value)) return cleanRoles(value);
  if (typeof value !== 'string') return [];
  const text = value.trim();
  if (text === '') return [];
  if (text.startsWith('[') || text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isArray(parsed)) return cleanRoles(parsed);
      if (typeof parsed === 'string') return parseAllowedRoles(parsed);
      return [];
    } catch {
      // Not JSON after all; fall through to the plain reading.
    }
  }
  return cleanRoles(text.split(','));
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A provider from the server with allowedRoles parsed and missing optional parts as null. */
export function normalizeProvider(raw: RawProvider): Provider {
  return {
    ...raw,
    allowedRoles: parseAllowedRoles(raw.allowedRoles),
    brevoActiveFolderId: numberOrNull(raw.brevoActiveFolderId),
    brevoInactiveFolderId: numberOrNull(raw.brevoInactiveFolderId),
    uploadId: numberOrNull(raw.uploadId),
    Upload: raw.Upload ?? null,
  };
}

/** A list from the server with the counters defaulting to 0. */
export function normalizeList(raw: ProviderList): ProviderList {
  return {
    ...raw,
    totalSubscribers: typeof raw.totalSubscribers === 'number' ? raw.totalSubscribers : 0,
    totalBlocked: typeof raw.totalBlocked === 'number' ? raw.totalBlocked : 0,
  };
}

/** URL of an uploaded file: its path on the site root. */
export function uploadUrl(path: string): string {
  if (/^(https?:)?\/\//.test(path) || path.startsWith('/')) return path;
  return `/${path}`;
}
