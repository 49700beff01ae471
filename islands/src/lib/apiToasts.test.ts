import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api';
import { errorDetail, toastReadError, toastValidationOrWriteError, toastWriteError } from './apiToasts';
import { clearToasts, getToasts } from './toast';

vi.mock('../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  clearToasts();
});

function shown() {
  return getToasts().map(({ type, message, detail }) => ({ type, message, detail }));
}

describe('api error toasts', () => {
  it('reports a failed read with the generic message only', () => {
    toastReadError(new ApiError(500, 'Datenbank weg', 'internal'));
    expect(shown()).toEqual([{ type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!', detail: null }]);
  });

  it('reports a failed write with the answer message and code', () => {
    toastWriteError(new ApiError(409, 'Liste ist aktiv', 'conflict'));
    expect(shown()).toEqual([
      { type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!', detail: 'Liste ist aktiv (Code: conflict)' },
    ]);
    expect(errorDetail(new ApiError(500, 'Nur Text'))).toBe('Nur Text');
  });

  it('shows a 400 message itself when asked to', () => {
    toastValidationOrWriteError(new ApiError(400, 'Der Name ist vergeben.', 'validation'));
    toastValidationOrWriteError(new ApiError(500, 'kaputt', 'internal'));
    expect(shown()).toEqual([
      { type: 'error', message: 'Der Name ist vergeben.', detail: null },
      { type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!', detail: 'kaputt (Code: internal)' },
    ]);
  });

  it('only logs network failures and other errors, and stays quiet about logins and aborts', () => {
    toastWriteError(new ApiError(0, NETWORK_ERROR_MESSAGE, 'network_error'));
    toastReadError(new TypeError('kaputt'));
    toastWriteError(new ApiError(401, 'Bitte anmelden', 'unauthorized'));
    toastWriteError(new ApiError(403, 'Bitte anmelden', 'not_logged_in'));
    toastReadError(new DOMException('abgebrochen', 'AbortError'));
    expect(shown()).toEqual([]);
    expect(consoleError).toHaveBeenCalledTimes(2);
  });
});
