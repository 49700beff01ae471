// uploadFile (lib/downloads.ts) and the form's warnings (toasts.ts) against the answers of
// POST /api/upload/ (spec §7, §8), with XMLHttpRequest stood in for: its upload events are why
// the call is not fetch.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Responses } from '../../../lib/apiTypes';
import { uploadFile, UploadFailure } from '../../../lib/downloads';
import type { UploadAnswer } from '../../../lib/downloads';
import { clearToasts, getToasts } from '../../../lib/toast';
import { toastUploadFailure } from './toasts';

class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  /** The server answers. */
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

function sentXhr(): FakeXhr {
  if (!FakeXhr.last) throw new Error('no request sent');
  return FakeXhr.last;
}

const pdf = () => new File(['%PDF-1.4'], 'Flyer.pdf', { type: 'application/pdf' });

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  clearToasts();
});
afterEach(() => vi.unstubAllGlobals());

/** The failure uploadFile rejects with. */
async function failure(upload: Promise<unknown>): Promise<UploadFailure> {
  const error: unknown = await upload.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UploadFailure);
  return error as UploadFailure;
}

describe('uploadFile', () => {
  it('posts the file as files[0] with the session and reports the bytes sent', async () => {
    const progress = vi.fn();
    const upload = uploadFile(pdf(), progress);
    const xhr = sentXhr();
    expect([xhr.method, xhr.url, xhr.withCredentials]).toEqual(['POST', '/api/upload/', true]);
    expect(xhr.headers.Accept).toBe('application/json');
    expect((xhr.body?.get('files[0]') as File).name).toBe('Flyer.pdf');

    xhr.upload.onprogress?.({ loaded: 4, total: 8, lengthComputable: true });
    expect(progress).toHaveBeenCalledWith(4, 8);

    const first = { id: 40, name: 'Flyer.pdf', ext: 'pdf', size: 8, path: '/files/40/Flyer.pdf', contentType: 'application/pdf' };
    const stored: UploadAnswer = { ...first, uploads: [first] };
    xhr.answer(200, stored);
    await expect(upload).resolves.toEqual(stored);
  });

  it('rejects a file over the limit (413) with fileName and limitSizeMB, shown as a warning', async () => {
    const upload = uploadFile(pdf(), vi.fn());
    const tooLarge: Responses['UploadTooLarge']['content']['application/json'] = {
      code: 'payload_too_large',
      message: 'Die Datei Video.mp4 ist zu groß. Erlaubt sind höchstens 2048 MB.',
      fileName: 'Video.mp4',
      limitSizeMB: 2048,
    };
    sentXhr().answer(413, tooLarge);
    const error = await failure(upload);
    expect(error.status).toBe(413);
    expect(error.message).toBe('Die Datei Video.mp4 ist zu groß. Erlaubt sind höchstens 2048 MB.');
    expect(error.body).toMatchObject({ fileName: 'Video.mp4', limitSizeMB: 2048 });

    toastUploadFailure(error);
    expect(getToasts().map(({ type, message }) => ({ type, message }))).toEqual([
      { type: 'warning', message: 'Die Datei Video.mp4 ist zu groß. Erlaubt sind höchstens 2048 MB.' },
    ]);
  });

  it('rejects a file type that is not allowed (422) with its fields, shown as a warning', async () => {
    const upload = uploadFile(pdf(), vi.fn());
    const refused: Responses['ExtensionNotAllowed']['content']['application/json'] = {
      code: 'file_extension_not_allowed',
      message: 'Nicht erlaubter Dateityp.',
      filesOverExtLimit: ['Skript.exe'],
      fileExtensions: ['exe'],
      allowedExtArray: ['pdf', 'png'],
    };
    sentXhr().answer(422, refused);
    const error = await failure(upload);
    expect(error.status).toBe(422);
    expect(error.body).toMatchObject({ filesOverExtLimit: ['Skript.exe'], fileExtensions: ['exe'], allowedExtArray: ['pdf', 'png'] });

    toastUploadFailure(error);
    expect(getToasts().map(({ type, message }) => ({ type, message }))).toEqual([
      { type: 'warning', message: 'Nicht erlaubter Dateityp: Skript.exe. Endungen: exe. Erlaubt sind: pdf, png.' },
    ]);
  });

  it('rejects a lost connection as status 0 with the German message', async () => {
    const upload = uploadFile(pdf(), vi.fn());
    sentXhr().onerror?.();
    const error = await failure(upload);
    expect(error.status).toBe(0);
    expect(error.message).toBe('Der Server ist nicht erreichbar.');
    expect(error.body).toEqual({});
  });

  it('keeps an answer that is not JSON as an unexpected error', async () => {
    const upload = uploadFile(pdf(), vi.fn());
    sentXhr().answer(502, '<html>Bad Gateway</html>');
    const error = await failure(upload);
    expect([error.status, error.message, error.body]).toEqual([502, 'Ein unerwarteter Fehler ist aufgetreten!', {}]);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const upload = uploadFile(pdf(), vi.fn(), controller.signal);
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
  });
});
