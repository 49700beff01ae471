import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, isApiError, NETWORK_ERROR_MESSAGE, UNEXPECTED_ERROR_MESSAGE } from './api';
import { navigateTo } from './navigate';

vi.mock('./navigate', () => ({ navigateTo: vi.fn() }));

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function lastRequest(): { url: string; init: RequestInit; headers: Headers } {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [url, init = {}] = call;
  if (typeof url !== 'string') throw new Error('apiFetch should pass the path as a string');
  return { url, init, headers: new Headers(init.headers) };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(navigateTo).mockClear();
  fetchMock.mockReset();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiFetch', () => {
  it('GETs JSON with Accept, same-origin credentials and no body', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { content: [1, 2], count: 2 }));

    const answer = await apiFetch<{ content: number[]; count: number }>('/api/downloads/x');

    expect(answer).toEqual({ content: [1, 2], count: 2 });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/downloads/x');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBeUndefined();
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('sends an object body as JSON with a JSON content type', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 7 }));

    await apiFetch('/api/providers/', { method: 'POST', body: { name: 'Marke', allowedRoles: [] } });

    const { init, headers } = lastRequest();
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"Marke","allowedRoles":[]}');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Accept')).toBe('application/json');
  });

  it('passes FormData through without forcing a content type', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 3 }));
    const form = new FormData();
    form.append('newName', 'datei.pdf');

    await apiFetch('/api/upload/', { method: 'POST', body: form });

    const { init, headers } = lastRequest();
    expect(init.body).toBe(form);
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('keeps headers the caller set', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));

    await apiFetch('/api/x', { headers: { 'X-Extra': '1' } });

    expect(lastRequest().headers.get('X-Extra')).toBe('1');
  });

  it('resolves an empty answer (204) with undefined', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));

    await expect(apiFetch('/api/lists/4', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('turns a {message, code} error answer into an ApiError', async () => {
    fetchMock.mockResolvedValue(jsonResponse(409, { message: 'Name existiert bereits', code: 'conflict' }));

    const error = await caught(apiFetch('/api/providers/', { method: 'POST', body: {} }));

    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('Name existiert bereits');
    expect(error.code).toBe('conflict');
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('uses the generic German message when the error answer has none', async () => {
    fetchMock.mockResolvedValue(new Response('<h1>Bad Gateway</h1>', { status: 502 }));

    const error = await caught(apiFetch('/api/x'));

    expect(error.status).toBe(502);
    expect(error.message).toBe(UNEXPECTED_ERROR_MESSAGE);
    expect(error.code).toBeNull();
  });

  it('sends the browser to /login on 401', async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Nicht angemeldet', code: 'unauthorized' }));

    const error = await caught(apiFetch('/api/auth/responseUserData'));

    expect(error.status).toBe(401);
    expect(navigateTo).toHaveBeenCalledWith('/login');
  });

  it.each(['not_logged_in', 'unauthorized_login'])('sends the browser to /login on code %s', async (code) => {
    fetchMock.mockResolvedValue(jsonResponse(403, { message: 'Bitte anmelden', code }));

    const error = await caught(apiFetch('/api/login/user'));

    expect(error.code).toBe(code);
    expect(navigateTo).toHaveBeenCalledWith('/login');
  });

  it('also treats a login code in a 200 answer as not logged in', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { code: 'not_logged_in' }));

    const error = await caught(apiFetch('/api/login/user'));

    expect(error.status).toBe(200);
    expect(navigateTo).toHaveBeenCalledWith('/login');
  });

  it('remembers the current page so the login returns to it', async () => {
    window.history.replaceState(null, '', '/admin/provider/3?suche=Flyer');
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Nicht angemeldet', code: 'not_logged_in' }));

    await caught(apiFetch('/api/providers/3/lists/'));

    expect(navigateTo).toHaveBeenCalledWith('/login?next=%2Fadmin%2Fprovider%2F3%3Fsuche%3DFlyer');
    window.history.replaceState(null, '', '/');
  });

  it('does not treat a 403 without a login code as a login problem', async () => {
    fetchMock.mockResolvedValue(jsonResponse(403, { message: 'Keine Berechtigung', code: 'forbidden' }));

    const error = await caught(apiFetch('/api/x'));

    expect(error.status).toBe(403);
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('reports a network failure as an ApiError with status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    const error = await caught(apiFetch('/api/x'));

    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('sends a read that gets no answer, or the database away, to the server-down page', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await caught(apiFetch('/api/x'));
    expect(navigateTo).toHaveBeenCalledWith('/serverDown');

    vi.mocked(navigateTo).mockClear();
    fetchMock.mockResolvedValue(jsonResponse(503, { message: 'weg', code: 'database_unavailable' }));
    const error = await caught(apiFetch('/api/x'));
    expect(error.status).toBe(503);
    expect(navigateTo).toHaveBeenCalledWith('/serverDown');
  });

  it('keeps a failed save on its page, and a slow answer too', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await caught(apiFetch('/api/x', { method: 'POST', body: { a: 1 } }));
    fetchMock.mockResolvedValue(jsonResponse(503, { message: 'weg', code: 'database_unavailable' }));
    await caught(apiFetch('/api/x', { method: 'PUT', body: { a: 1 } }));
    fetchMock.mockResolvedValue(jsonResponse(503, { message: 'langsam', code: 'timeout' }));
    await caught(apiFetch('/api/x'));
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('lets an abort through unchanged', async () => {
    const abort = new DOMException('aborted', 'AbortError');
    fetchMock.mockRejectedValue(abort);

    await expect(apiFetch('/api/x')).rejects.toBe(abort);
  });
});
