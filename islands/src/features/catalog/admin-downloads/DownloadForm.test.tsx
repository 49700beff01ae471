import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { uploadFile, UploadFailure } from '../../../lib/downloads';
import type { UploadAnswer } from '../../../lib/downloads';
import { navigateTo } from '../../../lib/navigate';
import { clearToasts, getToasts, showPendingToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler } from '../../../test/fetchMock';
import { download } from './fixtures';
import DownloadForm from './DownloadForm';
import type { DownloadFormProps } from './DownloadForm';
import type { AnnouncementDraft, AnnouncementView } from '../../../lib/announcements';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));
vi.mock('../../../lib/downloads', async (importOriginal) => {
  const original: object = await importOriginal();
  return { ...original, uploadFile: vi.fn() };
});

const providers = [
  { id: 1, name: 'Stadtwerke Nord', allowedRoles: ['GS-Aktionsportal-BU-Stadtwerke'], Upload: null },
  { id: 2, name: 'Glasfaser Süd', allowedRoles: ['GS-Aktionsportal-BU-Glasfaser'], Upload: null },
];
const requirements = { limitSizeMB: 1, allowedExtArray: ['pdf', 'png', 'zip'] };
const tags = [{ id: 1, name: 'Flyer', icon: 'bi bi-file-earmark-pdf' }];

const criteria = {
  1: [{ id: 5, name: 'Privatkunden Strom Nord', active: true }],
  2: [
    { id: 21, name: 'Glasfaser Privatkunden', active: true },
    { id: 22, name: 'Vorvermarktung Landkreis', active: false },
  ],
};

const template: AnnouncementDraft = {
  announce: true,
  subject: 'Neu im Aktionsportal: {Paket}',
  text: 'Ab {Gültig ab} gibt es neues Material.',
  reminderDays: 3,
};

/** The announcement of package `id` as the server answers it. */
function announcementView(id: number, change: Partial<AnnouncementView> = {}): AnnouncementView {
  return {
    downloadId: id,
    ...template,
    announce: false,
    saved: false,
    recipients: 3,
    announcedAt: null,
    remindedAt: null,
    mails: null,
    endNoticeMails: null,
    placeholders: ['{Paket}', '{Anbieter}', '{Gültig ab}', '{Gültig bis}'],
    ...change,
  };
}

/** The lists of providers 1 and 2 and the packages' announcements; other requests go to `rest`. */
function server(rest: MockHandler = () => jsonResponse(500, { message: 'unerwartet', code: 'internal' })): MockHandler {
  return (request) => {
    const match = /^\/api\/providers\/(\d+)\/lists\/$/.exec(request.path);
    if (request.method === 'GET' && match) {
      const content = criteria[Number(match[1]) as 1 | 2];
      return jsonResponse(200, { content, count: content.length });
    }
    const announcement = /^\/api\/download\/(\d+)\/announcement$/.exec(request.path);
    if (announcement && request.method === 'GET') return jsonResponse(200, announcementView(Number(announcement[1])));
    if (announcement && request.method === 'PUT') {
      return jsonResponse(200, announcementView(Number(announcement[1]), { ...(request.json as object), saved: true }));
    }
    return rest(request);
  };
}

function setup(props: Partial<DownloadFormProps> = {}, handler: MockHandler = server()) {
  const mock = installFetch(handler);
  render(
    <DownloadForm
      mode="add"
      download={null}
      providers={providers}
      requirements={requirements}
      tags={tags}
      announcement={template}
      {...props}
    />,
  );
  return mock;
}

function toasts() {
  return getToasts().map(({ type, message }) => ({ type, message }));
}

function pdf(name: string, bytes = 10): File {
  return new File([new Uint8Array(bytes)], name, { type: 'application/pdf' });
}

function drop(files: File[]) {
  fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files, types: ['Files'] } });
}

function stored(id: number, name: string): UploadAnswer {
  const upload = { id, name, path: `/files/${id}/${name}`, ext: 'pdf', size: 10, contentType: 'application/pdf' };
  return { ...upload, uploads: [upload] };
}

function group(name: 'new' | 'existing' | 'removed') {
  return within(screen.getByTestId(`file-group-${name}`));
}

function fileNames(name: 'new' | 'existing' | 'removed'): string[] {
  return group(name)
    .queryAllByTestId('file-row')
    .map((row) => row.getAttribute('data-file-name') ?? '');
}

async function chooseCriteria(...names: string[]) {
  fireEvent.click(screen.getByTestId('open-criteria'));
  const picker = within(await screen.findByTestId('criteria-picker'));
  await picker.findByText(names[0] ?? '');
  for (const name of names) fireEvent.click(picker.getByLabelText(name));
  fireEvent.click(picker.getByTestId('criteria-apply'));
}

async function submit() {
  await act(async () => {
    fireEvent.submit(screen.getByTestId('download-form'));
    await Promise.resolve();
  });
}

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
  vi.mocked(uploadFile).mockReset();
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('DownloadForm: fields', () => {
  it('labels its fields and offers only the providers it was given', () => {
    setup();
    expect(screen.getByLabelText('Bezeichnung').tagName).toBe('TEXTAREA');
    const provider = screen.getByLabelText<HTMLSelectElement>('Anbieter');
    expect(provider.disabled).toBe(false);
    expect(Array.from(provider.options).map((o) => o.textContent)).toEqual([
      'Bitte Anbieter wählen',
      'Stadtwerke Nord',
      'Glasfaser Süd',
    ]);
    expect(screen.getByLabelText<HTMLInputElement>('Startdatum').type).toBe('date');
    expect(screen.getByLabelText<HTMLInputElement>('Enddatum').type).toBe('date');
    expect(screen.getByTestId('upload-requirements').textContent).toBe(
      'Maximale Dateigröße: 1 MB · Erlaubte Dateitypen: pdf, png, zip',
    );
    expect(screen.getByRole('button', { name: 'Anlegen' })).not.toBeNull();
  });

  it('enables the lists button only with a provider; changing the provider clears the lists', async () => {
    const { requests } = setup();
    const button = screen.getByTestId<HTMLButtonElement>('open-criteria');
    expect(button.disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    expect(button.disabled).toBe(false);
    await chooseCriteria('Glasfaser Privatkunden');
    expect(button.textContent).toContain('Kriterien auswählen (1)');
    const listCall = requests.find((r) => r.path === '/api/providers/2/lists/');
    expect(listCall?.url.searchParams.get('limit')).toBe('1000');

    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '1' } });
    expect(button.textContent).toContain('Kriterien auswählen (0)');
  });

  it('shows inactive lists disabled, struck through and archived', async () => {
    setup();
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('open-criteria'));
    const picker = within(await screen.findByTestId('criteria-picker'));
    const inactive = await picker.findByLabelText<HTMLInputElement>(/Vorvermarktung Landkreis/);
    expect(inactive.disabled).toBe(true);
    const label = inactive.closest('.form-check');
    expect(label?.querySelector('.text-decoration-line-through')?.textContent).toBe('Vorvermarktung Landkreis');
    expect(label?.textContent).toContain('ARCHIVIERT');
  });
});

describe('DownloadForm: checks before any call', () => {
  it('shows the first problem as an error toast and calls nothing', async () => {
    const { requests } = setup();
    await submit();
    expect(toasts()).toEqual([{ type: 'error', message: 'Die Bezeichnung muss mindestens 5 Zeichen lang sein.' }]);

    clearToasts();
    fireEvent.change(screen.getByLabelText('Bezeichnung'), { target: { value: 'Herbstaktion' } });
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Startdatum'), { target: { value: '2026-09-01' } });
    fireEvent.change(screen.getByLabelText('Enddatum'), { target: { value: '2026-09-30' } });
    await submit();
    expect(toasts()).toEqual([{ type: 'error', message: 'Es muss mindestens ein Kriterium hinterlegt werden' }]);
    expect(requests).toEqual([]);
  });

  it('refuses empty, too large and wrongly typed files before uploading', () => {
    setup();
    drop([pdf('Leer.pdf', 0), pdf('Groß.pdf', 1024 * 1024 + 1), new File(['x'], 'Tool.exe')]);
    expect(toasts()).toEqual([
      { type: 'error', message: 'Die Datei Leer.pdf muss größer als 0 KB sein.' },
      { type: 'error', message: 'Die Datei Groß.pdf ist zu groß. Erlaubt sind höchstens 1 MB.' },
      { type: 'error', message: 'Nicht erlaubter Dateityp: Tool.exe. Endungen: exe. Erlaubt sind: pdf, png, zip.' },
    ]);
    expect(uploadFile).not.toHaveBeenCalled();
    expect(fileNames('new')).toEqual([]);
  });
});

describe('DownloadForm: uploads', () => {
  it('shows byte progress while a dropped file uploads, then the stored file', async () => {
    let finish: (answer: UploadAnswer) => void = () => {};
    let progress: (sent: number, total: number) => void = () => {};
    vi.mocked(uploadFile).mockImplementation((_file, onProgress) => {
      progress = onProgress;
      return new Promise((resolve) => {
        finish = resolve;
      });
    });
    setup();
    drop([pdf('Flyer Test.pdf')]);

    expect(fileNames('new')).toEqual(['Flyer Test.pdf']);
    act(() => progress(4, 10));
    expect(screen.getByTestId('upload-progress').getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByLabelText<HTMLButtonElement>('Flyer Test.pdf umbenennen').disabled).toBe(true);

    await act(async () => {
      finish(stored(40, 'Flyer Test.pdf'));
      await Promise.resolve();
    });
    expect(screen.queryByTestId('upload-progress')).toBeNull();
    expect(screen.getByLabelText<HTMLButtonElement>('Flyer Test.pdf umbenennen').disabled).toBe(false);
  });

  it('takes files from the picker and removes a new one before saving', async () => {
    vi.mocked(uploadFile).mockResolvedValue(stored(41, 'Preisliste.pdf'));
    setup();
    const input = screen.getByTestId<HTMLInputElement>('file-input');
    await act(async () => {
      fireEvent.change(input, { target: { files: [pdf('Preisliste.pdf')] } });
      await Promise.resolve();
    });
    expect(fileNames('new')).toEqual(['Preisliste.pdf']);

    fireEvent.click(screen.getByLabelText('Preisliste.pdf entfernen'));
    expect(fileNames('new')).toEqual([]);
  });

  it('warns with the server answer when it refuses a file (413)', async () => {
    vi.mocked(uploadFile).mockRejectedValue(
      new UploadFailure(413, 'zu groß', { fileName: 'Video.pdf', limitSizeMB: 1, code: 'payload_too_large' }),
    );
    setup();
    await act(async () => {
      drop([pdf('Video.pdf')]);
      await Promise.resolve();
    });
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'warning', message: 'Die Datei Video.pdf ist zu groß. Erlaubt sind höchstens 1 MB.' }]),
    );
    expect(fileNames('new')).toEqual([]);
  });
});

describe('DownloadForm: saving', () => {
  it('creates the package with its renamed file and goes to the downloads screen', async () => {
    vi.mocked(uploadFile).mockResolvedValue(stored(40, 'Flyer Test.pdf'));
    const { requests } = setup({}, server(() => jsonResponse(200, download(99))));
    fireEvent.change(screen.getByLabelText('Bezeichnung'), { target: { value: 'Herbstaktion 2026' } });
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Startdatum'), { target: { value: '2026-09-01' } });
    fireEvent.change(screen.getByLabelText('Enddatum'), { target: { value: '2026-09-30' } });
    await chooseCriteria('Glasfaser Privatkunden');
    await act(async () => {
      drop([pdf('Flyer Test.pdf')]);
      await Promise.resolve();
    });
    fireEvent.click(await screen.findByLabelText('Flyer Test.pdf umbenennen'));
    const rename = screen.getByLabelText('Neuer Name für Flyer Test.pdf');
    fireEvent.change(rename, { target: { value: 'a.pd' } });
    expect(screen.getByTestId<HTMLButtonElement>('rename-apply').disabled).toBe(true);
    fireEvent.change(rename, { target: { value: 'Flyer Herbst.pdf' } });
    fireEvent.click(screen.getByTestId('rename-apply'));
    fireEvent.click(screen.getByLabelText('Flyer'));

    await submit();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/downloads'));
    const create = requests.find((r) => r.method === 'POST');
    expect(create?.path).toBe('/api/download/');
    expect(create?.json).toEqual({
      name: 'Herbstaktion 2026',
      // The typed Berlin days, as the instants they start and end at.
      startAt: '2026-08-31T22:00:00Z',
      endAt: '2026-09-30T21:59:59Z',
      ProviderId: 2,
      listsIds: [21],
      uploadsToInsert: [{ id: 40, name: 'Flyer Herbst.pdf', tagsIds: [1] }],
    });
    clearToasts();
    showPendingToasts();
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich angelegt' }]);
  });

  it('edits: provider fixed, files marked for removal and restored, then reloaded from the answer', async () => {
    const saved = download(7, { name: 'Aktion 7 neu', Uploads: [download(7).Uploads[1]!] });
    const { requests } = setup({ mode: 'edit', download: download(7) }, server(() => jsonResponse(200, saved)));
    expect(screen.getByLabelText<HTMLSelectElement>('Anbieter').disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Aktualisieren' })).not.toBeNull();
    expect(fileNames('existing')).toEqual(['Datei 11.pdf', 'Datei 12.pdf']);

    fireEvent.click(screen.getByLabelText('Datei 12.pdf entfernen'));
    fireEvent.click(screen.getByLabelText('Datei 11.pdf entfernen'));
    expect(fileNames('removed')).toEqual(['Datei 12.pdf', 'Datei 11.pdf']);
    fireEvent.click(screen.getByLabelText('Datei 12.pdf wiederherstellen'));
    expect(fileNames('existing')).toEqual(['Datei 12.pdf']);
    expect(fileNames('removed')).toEqual(['Datei 11.pdf']);
    fireEvent.change(screen.getByLabelText('Bezeichnung'), { target: { value: 'Aktion 7 neu' } });

    await submit();
    await waitFor(() => expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich aktualisiert' }]));
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/api/download/7');
    expect(put?.json).toMatchObject({
      name: 'Aktion 7 neu',
      ProviderId: 2,
      listsIds: [21, 22],
      uncheckedListsIds: [],
      Uploads: [{ id: 12, name: 'Datei 12.pdf', tagsIds: [1] }],
      uploadsToDelete: [11],
      uploadsToInsert: [],
    });
    expect(fileNames('existing')).toEqual(['Datei 12.pdf']);
    expect(fileNames('removed')).toEqual([]);
    expect(navigateTo).not.toHaveBeenCalled();
  });

  it('shows a refused save as "Unerwarteter Fehler: Message: … Code: …"', async () => {
    setup(
      { mode: 'edit', download: download(7) },
      server(() => jsonResponse(403, { message: 'Keine Berechtigung.', code: 'forbidden' })),
    );
    await submit();
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'error', message: 'Unerwarteter Fehler: Message: Keine Berechtigung. Code: forbidden' }]),
    );
    expect(screen.getByTestId<HTMLButtonElement>('submit').disabled).toBe(false);
  });
});

describe('DownloadForm: leaving', () => {
  it('goes back at once while nothing changed', () => {
    setup();
    const back = screen.getByTestId('back');
    expect(back.getAttribute('href')).toBe('/admin/downloads');
    expect(fireEvent.click(back)).toBe(true);
    expect(screen.queryByTestId('leave-modal')).toBeNull();
  });

  it('asks before discarding unsaved changes, also when the page is left otherwise', () => {
    setup();
    fireEvent.change(screen.getByLabelText('Bezeichnung'), { target: { value: 'Entwurf' } });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    expect(fireEvent.click(screen.getByTestId('back'))).toBe(false);
    fireEvent.click(within(screen.getByTestId('leave-modal')).getByTestId('confirm-leave'));
    expect(navigateTo).toHaveBeenCalledWith('/admin/downloads');
  });
});

describe('DownloadForm: the announcement by email', () => {
  async function fillNewPackage() {
    fireEvent.change(screen.getByLabelText('Bezeichnung'), { target: { value: 'Herbstaktion 2026' } });
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Startdatum'), { target: { value: '2026-09-01' } });
    fireEvent.change(screen.getByLabelText('Enddatum'), { target: { value: '2026-09-30' } });
    await chooseCriteria('Glasfaser Privatkunden');
  }

  it('is switched on for a new package and saved with it from the template as edited', async () => {
    const { requests } = setup({}, server(() => jsonResponse(200, download(99))));
    expect(screen.getByLabelText<HTMLInputElement>('Bei Start ankündigen').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Betreff').value).toBe('Neu im Aktionsportal: {Paket}');
    expect(screen.getByTestId<HTMLButtonElement>('announcement-preview').disabled).toBe(true);
    await fillNewPackage();
    fireEvent.change(screen.getByLabelText('Betreff'), { target: { value: 'Neu: {Paket}' } });
    fireEvent.change(screen.getByLabelText('Erinnerung vor Ablauf (Tage, 0 = keine)'), { target: { value: '5' } });
    await submit();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/downloads'));
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe('/api/download/99/announcement');
    expect(put?.json).toEqual({ ...template, subject: 'Neu: {Paket}', reminderDays: 5, confirmStarted: false });
  });

  it('asks before announcing a package that has started, and sends only after "Jetzt senden"', async () => {
    const asked = 'Das Paket hat bereits begonnen: Die Ankündigung geht sofort an 3 Kontakte. Bitte bestätigen Sie den Versand.';
    const lists = server(() => jsonResponse(200, download(99)));
    const { requests } = setup({}, (request) => {
      if (request.method === 'PUT' && request.path === '/api/download/99/announcement') {
        const confirmed = (request.json as { confirmStarted: boolean }).confirmStarted;
        return confirmed
          ? jsonResponse(200, announcementView(99, { announce: true, saved: true, announcedAt: '2026-09-01T08:00:00Z' }))
          : jsonResponse(409, { message: asked, code: 'confirmation_required' });
      }
      return lists(request);
    });
    await fillNewPackage();
    await submit();
    const modal = await screen.findByTestId('announcement-confirm');
    expect(modal.textContent).toContain(asked);
    expect(navigateTo).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('announcement-send-now'));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/downloads'));
    const puts = requests.filter((r) => r.method === 'PUT').map((r) => (r.json as { confirmStarted: boolean }).confirmStarted);
    expect(puts).toEqual([false, true]);
  });

  it('shows an edited package\'s count and status, lists the failures, previews and sends the test mail', async () => {
    const announced = announcementView(7, {
      announce: true,
      saved: true,
      recipients: 1234,
      announcedAt: '2026-03-01T08:00:00Z',
      mails: { recipients: 1234, sent: 1230, failed: 1, waiting: 3, skipped: 0 },
      remindedAt: '2026-03-28T23:30:00Z',
      endNoticeMails: { recipients: 12, sent: 12, failed: 0, waiting: 0, skipped: 0 },
    });
    const { requests } = setup(
      { mode: 'edit', download: download(7) },
      (request) => {
        if (request.path === '/api/download/7/announcement') return jsonResponse(200, announced);
        if (request.path.startsWith('/api/download/7/announcement/failures')) {
          return jsonResponse(200, [
            { contactId: 4, email: 'alt@example.de', state: 'failed', attempts: 1, error: 'SMTP: 550 No such user', updatedAt: '2026-03-01T08:01:00Z' },
          ]);
        }
        if (request.path === '/api/download/7/announcement/preview') {
          return jsonResponse(200, { subject: 'Neu: Aktion 7', text: 'Guten Tag,', html: '<p>Guten Tag,</p>' });
        }
        if (request.path === '/api/download/7/announcement/again') {
          return jsonResponse(200, { ...announced, mails: { ...announced.mails!, failed: 0, waiting: 4 } });
        }
        if (request.path === '/api/download/7/announcement/test-mail') {
          return jsonResponse(200, { sentTo: 'erika@example.de', messageId: '<t@x>' });
        }
        return jsonResponse(500, { message: 'unerwartet', code: 'internal' });
      },
    );
    const status = await screen.findByTestId('announcement-status');
    expect(status.textContent).toContain('Angekündigt am 01.03.2026 an 1.234 Kontakte (1.230 gesendet, 1 fehlgeschlagen, 3 wartend)');
    // In German time: 23:30 UTC on 28 March is already the 29th in Berlin.
    expect(screen.getByTestId('end-notice-status').textContent).toBe(
      'Erinnerung vor Ablauf am 29.03.2026 an 12 Kontakte (12 gesendet, 0 fehlgeschlagen)',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Bei Start ankündigen').disabled).toBe(true);
    fireEvent.click(screen.getByTestId('announcement-failures'));
    const failures = await screen.findByTestId('announcement-failures-modal');
    expect(failures.textContent).toContain('alt@example.de: SMTP: 550 No such user');
    fireEvent.click(within(failures).getByLabelText('Schließen'));

    fireEvent.click(screen.getByTestId('announcement-preview'));
    const preview = await screen.findByTestId('announcement-preview-modal');
    expect(preview.textContent).toContain('Neu: Aktion 7');
    const frame = preview.querySelector('iframe');
    expect(frame?.getAttribute('sandbox')).toBe('');
    // The HTML part as its own page, with the subject and text as typed (not yet saved).
    const url = new URL(frame?.getAttribute('src') ?? '', 'http://portal');
    expect(url.pathname).toBe('/api/download/7/announcement/preview.html');
    expect(url.searchParams.get('subject')).toBe(template.subject);
    expect(url.searchParams.get('text')).toBe(template.text);
    fireEvent.click(within(preview).getByLabelText('Schließen'));

    fireEvent.click(screen.getByTestId('announcement-test-mail'));
    await waitFor(() => expect(toasts()).toEqual([{ type: 'success', message: 'Testmail an erika@example.de gesendet.' }]));
    const test = requests.find((r) => r.path === '/api/download/7/announcement/test-mail');
    expect(test?.json).toEqual({ announce: true, subject: template.subject, text: template.text, reminderDays: 3 });
    // "Erneut ankündigen" asks first, then shows the new state.
    clearToasts();
    fireEvent.click(screen.getByTestId('announce-again'));
    expect(requests.some((r) => r.path.endsWith('/again'))).toBe(false);
    fireEvent.click(await screen.findByTestId('announce-again-send'));
    await waitFor(() =>
      expect(screen.getByTestId('announcement-status').textContent).toContain('(1.230 gesendet, 0 fehlgeschlagen, 4 wartend)'),
    );
    expect(requests.filter((r) => r.path.endsWith('/again')).map((r) => r.method)).toEqual(['POST']);
    // Nothing of the announcement was touched: an update of the package does not save it.
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });
});
