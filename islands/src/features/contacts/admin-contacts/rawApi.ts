// Calls of the contacts screen that lib/api.ts's apiFetch cannot make as they are: the sync
// stream (read piece by piece, not as a whole) and the CSV uploads (the error answer carries a
// list of line errors besides message and code). Same conventions as apiFetch: same-origin
// cookies (the server's CSRF check reads the browser's Sec-Fetch-Site / Origin headers), errors
// as ApiError, a missing login sends the browser to /login.
import { answerError, ApiError, readBody, sendRequest, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import type { Schemas } from '../../../lib/apiTypes';

/** An error answer that also named the faulty lines of an uploaded file. */
export type LineError = Schemas['CsvLineError'];

export class CsvError extends ApiError {
  /** The first line errors (the server lists up to 200). */
  readonly errors: LineError[];
  /** Line errors in all. */
  readonly errorCount: number;

  constructor(status: number, message: string, code: string | null, errors: LineError[], errorCount = errors.length) {
    super(status, message, code);
    this.name = 'CsvError';
    this.errors = errors;
    this.errorCount = Math.max(errorCount, errors.length);
  }
}

/** `errorCount` of an answer (errors in all, when more than listed), else the listed ones. */
export function errorCountOf(body: unknown, listed: number): number {
  if (typeof body !== 'object' || body === null) return listed;
  const count = (body as Record<string, unknown>).errorCount;
  return typeof count === 'number' && Number.isFinite(count) ? Math.max(count, listed) : listed;
}

/** `errors` of an answer, the well-formed ones. */
export function lineErrorsOf(body: unknown): LineError[] {
  if (typeof body !== 'object' || body === null) return [];
  const errors = (body as Record<string, unknown>).errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { line, message } = item as Record<string, unknown>;
    return typeof line === 'number' && typeof message === 'string' ? [{ line, message }] : [];
  });
}

/** The ApiError (or CsvError, when it lists line errors) of a failed answer. */
async function failure(response: Response): Promise<ApiError> {
  const body = await readBody(response).catch(() => undefined);
  const error = answerError(response.status, body) ?? new ApiError(response.status, UNEXPECTED_ERROR_MESSAGE, null);
  const errors = lineErrorsOf(body);
  if (errors.length === 0) return error;
  return new CsvError(error.status, error.message, error.code, errors, errorCountOf(body, errors.length));
}

/**
 * Starts the sync of the contacts from Brevo: the open answer, whose body the caller reads as
 * a stream. Rejects with ApiError for an error answer (409 sync_running, marketing_not_connected).
 */
export async function startBrevoSync(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const response = await sendRequest('/api/syncContactsFromBrevo', {
    headers: { Accept: 'application/x-ndjson, application/json' },
    signal,
  });
  if (!response.ok) throw await failure(response);
  if (!response.body) throw new ApiError(response.status, UNEXPECTED_ERROR_MESSAGE, 'no_body');
  return response.body;
}

/** Posts an uploaded file as it is (text/csv) and answers the parsed JSON answer. */
export async function postCsv<T>(path: string, file: Blob, signal?: AbortSignal): Promise<T> {
  const response = await sendRequest(path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
    body: file,
    signal,
  });
  if (!response.ok) throw await failure(response);
  return (await readBody(response)) as T;
}
