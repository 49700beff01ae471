// The one fetch client of the islands: JSON in and out, same-origin cookies, and errors of the
// server's `{ message, code }` shape turned into ApiError. Not being logged in (401, or the codes
// not_logged_in / unauthorized_login) sends the browser to /login, which returns to the page after sign-in.
import { navigateTo } from './navigate';

export const LOGIN_PATH = '/login';
/** Spec §2: where a page goes when the server cannot be reached; it returns to / by itself. */
export const SERVER_DOWN_PATH = '/serverDown';
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

  return { ...rest, headers, body: requestBody };
}

/** The answer's body: parsed JSON, the text when it is not JSON, undefined when empty. */
export async function readBody(response: Response): Promise<unknown> {
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

/**
 * fetch with the session cookie; a request that gets no answer becomes ApiError status 0
 * (a cancelled one stays an AbortError). For the calls apiFetch cannot make as they are.
 */
export async function sendRequest(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { ...init, credentials: 'same-origin' });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    leadToServerDown(init.method);
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'network_error');
  }
}

/**
 * Spec §2: a server that cannot be reached (no answer, or its database away) leads to
 * /serverDown. Only for reads: a failed save keeps the form and its toast, so nothing typed
 * is lost by leaving the page.
 */
function leadToServerDown(method: string | undefined): void {
  const read = method === undefined || method.toUpperCase() === 'GET';
  if (read && window.location.pathname !== SERVER_DOWN_PATH) navigateTo(SERVER_DOWN_PATH);
}

/**
 * The ApiError of an answer that is not a success (or says the login is missing), with the
 * server's message and code; a missing login also sends the browser to /login.
 */
export function answerError(status: number, body: unknown): ApiError | null {
  const code = field(body, 'code');
  if (status === 401 || (code !== null && LOGIN_CODES.has(code))) {
    if (window.location.pathname !== LOGIN_PATH) navigateTo(loginUrl());
    return new ApiError(status, field(body, 'message') ?? 'Bitte melden Sie sich an.', code);
  }
  if (status < 200 || status > 299) return new ApiError(status, field(body, 'message') ?? UNEXPECTED_ERROR_MESSAGE, code);
  return null;
}

/**
 * Calls the portal's API. Resolves with the parsed JSON answer (undefined for an empty one,
 * e.g. 204); rejects with ApiError for every non-2xx answer and for network failures.
 */
export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  const request = buildRequest(init);
  const response = await sendRequest(path, request);
  const body = await readBody(response);
  const error = answerError(response.status, body);
  if (error?.status === 503 && error.code === 'database_unavailable') leadToServerDown(request.method);
  if (error) throw error;
  return body as T;
}
