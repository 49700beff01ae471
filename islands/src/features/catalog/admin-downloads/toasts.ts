// The toasts of the download screens (spec §8): success texts, failed package writes, and the
// upload answers 413 and 422 as warnings.
import { isApiError, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import { UploadFailure } from '../../../lib/downloads';
import { toast } from '../../../lib/toast';
import { extensionMessage, tooLargeMessage } from './validation';

export const CREATED_MESSAGE = 'Erfolgreich angelegt';
export const UPDATED_MESSAGE = 'Erfolgreich aktualisiert';
export const REMOVED_MESSAGE = 'Erfolgreich entfernt';

const LOGIN_CODES: ReadonlySet<string> = new Set(['not_logged_in', 'unauthorized_login']);

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function mutationErrorMessage(message: string, code: string): string {
  return `Unerwarteter Fehler: Message: ${message} Code: ${code}`;
}

/**
 * A failed package write (create, edit, duplicate, archive, delete): "Unerwarteter Fehler:
 * Message: … Code: …". Network failures are only logged; a lost login already went to /login.
 */
export function toastMutationError(error: unknown): void {
  if (isAbort(error)) return;
  if (!isApiError(error) || error.status === 0) {
    console.error('[downloads] write failed', error);
    return;
  }
  if (error.status === 401 || (error.code !== null && LOGIN_CODES.has(error.code))) return;
  toast.error(mutationErrorMessage(error.message, error.code ?? String(error.status)));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A failed upload: 413 and 422 as warnings naming the files, others as errors. */
export function toastUploadFailure(error: unknown): void {
  if (isAbort(error)) return;
  if (!(error instanceof UploadFailure) || error.status === 0) {
    console.error('[upload] failed', error);
    return;
  }
  const { body } = error;
  if (error.status === 413) {
    const fileName = typeof body.fileName === 'string' ? body.fileName : '';
    toast.warning(tooLargeMessage(fileName, Number(body.limitSizeMB)));
  } else if (error.status === 422) {
    toast.warning(
      extensionMessage(strings(body.filesOverExtLimit), strings(body.fileExtensions), strings(body.allowedExtArray)),
    );
  } else if (error.status === 400) {
    // The server's own check, e.g. an empty file inside an archive.
    toast.error(error.message);
  } else if (error.status !== 401) {
    toast.error(UNEXPECTED_ERROR_MESSAGE, error.message);
  }
}
