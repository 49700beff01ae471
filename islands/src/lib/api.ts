// The one fetch client of the islands: JSON in and out, same-origin cookies, and errors of the
// server's `{ message, code }` shape turned into ApiError. Not being logged in (401, or the codes
// not_logged_in / unauthorized_login) sends the browser to /login, which returns to the page after sign-in.
import { navigateTo } from './navigate';

export const LOGIN_PATH = '/login';
export const UNEXPECTED_ERROR_MESSAGE = 'Ein unerwarteter Fehler ist aufgetreten!';
export const NETWORK_ERROR_MESSAGE = 'Der Server ist nicht erreichbar.';

const LOGIN_CODES: ReadonlySet<string> = new Set(['not_logged_in', 'unauthorized_login']);

/** The login page, remembering the current page so the portal returns to it after sign-in. */
export function loginUrl(): string {
  const here = window.location.pathname + window.location.search;
  return here === '/' ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(here)}`;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;

  /** status 0 means the request never got an answer (network failure). */
  constructor(status: number, message: string, code: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Like RequestInit, but `body` may also be any JSON-serialisable value. */
export type ApiInit = Omit<RequestInit, 'body'> & { body?: unknown };

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

function buildRequest(init: ApiInit): RequestInit {
  const { body, headers: givenHeaders, ...rest } = init;
  const headers = new Headers(givenHeaders);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');

  let requestBody: BodyInit | undefined;
  if (body !== undefined) {
    if (isRawBody(body)) {
      requestBody = body;
      // A string is taken as JSON text; FormData, Blob etc. bring their own content type.
      if (typeof body === 'string' && !headers.has('Content-Type')) {
        headers.set('Content-Type', 'application/json');
      }
    } else {
      requestBody = JSON.stringify(body);
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    }
  }

  return { ...rest, headers, body: requestBody, credentials: 'same-origin' };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function field(body: unknown, name: 'message' | 'code'): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function toLogin(): void {
  if (window.location.pathname !== LOGIN_PATH) navigateTo(loginUrl());
}

/**
 * Calls the portal's API. Resolves with the parsed JSON answer (undefined for an empty one,
 * e.g. 204); rejects with ApiError for every non-2xx answer and for network failures.
 */
export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, buildRequest(init));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'network_error');
  }

  const body = await readBody(response);
  const code = field(body, 'code');

  if (response.status === 401 || (code !== null && LOGIN_CODES.has(code))) {
    toLogin();
    throw new ApiError(response.status, field(body, 'message') ?? 'Bitte melden Sie sich an.', code);
  }

  if (!response.ok) {
    throw new ApiError(response.status, field(body, 'message') ?? UNEXPECTED_ERROR_MESSAGE, code);
  }

  return body as T;
}
