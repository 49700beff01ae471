// Turns failed API calls into the spec's toasts (§8 error catalogue):
// - reads:  'Ein unerwarteter Fehler ist aufgetreten!'
// - writes: the same, with the answer's message and code;
// - network failures and other fetch errors are only logged; a missing login already sent the
//   browser to /login (lib/api.ts), an aborted request is nobody's business.
import { isApiError, UNEXPECTED_ERROR_MESSAGE } from './api';
import type { ApiError } from './api';
import { toast } from './toast';

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

const LOGIN_CODES: ReadonlySet<string> = new Set(['not_logged_in', 'unauthorized_login']);

/** The ApiError worth telling the user about, or null (logged instead). */
function reportable(error: unknown): ApiError | null {
  if (isAbort(error)) return null;
  if (!isApiError(error)) {
    console.error('[api] unexpected failure', error);
    return null;
  }
  if (error.status === 0) {
    console.error('[api] network failure', error);
    return null;
  }
  if (error.status === 401 || (error.code !== null && LOGIN_CODES.has(error.code))) return null;
  return error;
}

/** "{message} (Code: {code})", or just the message when the answer had no code. */
export function errorDetail(error: ApiError): string {
  return error.code ? `${error.message} (Code: ${error.code})` : error.message;
}

/** A failed read (GET). */
export function toastReadError(error: unknown): void {
  if (reportable(error)) toast.error(UNEXPECTED_ERROR_MESSAGE);
}

/** A failed write (POST, PUT, PATCH, DELETE): the generic text plus the answer's message and code. */
export function toastWriteError(error: unknown): void {
  const apiError = reportable(error);
  if (apiError) toast.error(UNEXPECTED_ERROR_MESSAGE, errorDetail(apiError));
}

/** Like toastWriteError, but a 400 (validation) shows the server's own message as the toast. */
export function toastValidationOrWriteError(error: unknown): void {
  const apiError = reportable(error);
  if (!apiError) return;
  if (apiError.status === 400) toast.error(apiError.message);
  else toast.error(UNEXPECTED_ERROR_MESSAGE, errorDetail(apiError));
}
