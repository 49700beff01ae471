import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Download } from '../../../lib/downloads';
import type { Schemas } from '../../../lib/apiTypes';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler, MockRequest } from '../../../test/fetchMock';
import { concat, download, file, localHeader } from './fixtures';
import AdminDownloads, { SETTINGS_MESSAGE } from './AdminDownloads';
import type { AdminDownloadsProps } from './AdminDownloads';

type PackageDownloads = Schemas['PackageDownloads'];

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const providers = [
  { id: 1, name: 'Stadtwerke Nord', allowedRoles: ['GS-Aktionsportal-BU-Stadtwerke'], Upload: null },
  { id: 2, name: 'Glasfaser Süd', allowedRoles: ['GS-Aktionsportal-BU-Glasfaser'], Upload: null },
];

const firstPage: Download[] = [
  download(9, { name: 'Sommeraktion', badge: 'BEENDET' }),
  download(8, {
    name: 'Wechselbonus',
    mayManage: false,
    ProviderId: 1,
    Provider: { id: 1, name: 'Stadtwerke Nord', allowedRoles: [], Upload: { id: 3, name: 'Logo.svg', path: '/files/3/Logo.svg' } },
  }),
];

const unexpected = () => jsonResponse(500, { message: 'unerwartet', code: 'internal' });

/** All-time downloads the statistics know, by package id (the Downloads column). */
const ALL_TIME: Record<number, number> = { 9: 1234, 8: 5 };
const STATISTICS_DOWNLOADS = '/api/statistics/downloads';
/** Package 9's announcement went out; the others were never announced. */
const ANNOUNCED = {
  downloadId: 9,
  announcedAt: '2026-06-01T06:00:00Z',
  mails: { recipients: 1234, sent: 1230, failed: 4, waiting: 0, skipped: 0 },
};
const ANNOUNCEMENTS = '/api/announcements';

/**
 * Renders the list. The Downloads column's calls are answered from ALL_TIME (ids not in it are
 * left out, as the server leaves out packages the user may not see) and kept apart in
 * `columnRequests`, the announcements' from ANNOUNCED in `statusRequests`: `requests` holds
 * every other call, which `handler` answers.
 */
function setup(handler: MockHandler = unexpected, props: Partial<AdminDownloadsProps> = {}) {
  const requests: MockRequest[] = [];
  const columnRequests: MockRequest[] = [];
  const statusRequests: MockRequest[] = [];
  const mock = installFetch((request) => {
    if (request.path === ANNOUNCEMENTS) {
      statusRequests.push(request);
      const ids = (request.url.searchParams.get('ids') ?? '').split(',').map(Number);
      return jsonResponse(200, ids.includes(ANNOUNCED.downloadId) ? [ANNOUNCED] : []);
    }
    if (request.path === STATISTICS_DOWNLOADS) {
      columnRequests.push(request);
      const ids = (request.url.searchParams.get('ids') ?? '').split(',').map(Number);
      return jsonResponse(
        200,
        ids.filter((id) => id in ALL_TIME).map((id): PackageDownloads => ({ id, downloads: ALL_TIME[id] ?? 0 })),
      );
    }
    requests.push(request);
    return handler(request);
  });
  render(
    <AdminDownloads
      page={{ content: firstPage, count: firstPage.length }}
      query={{ limit: null, offset: null, sort: null, sortBy: null, archived: null, search: null, providerIds: null }}
      providers={providers}
      productName="Netzvermarktung"
      browserZipLimitMb={500}
      {...props}
    />,
  );
  return { fetchMock: mock.fetchMock, requests, columnRequests, statusRequests };
}

function rowIds(): number[] {
  return screen.queryAllByTestId('download-row').map((row) => Number(row.getAttribute('data-download-id')));
}

function row(id: number) {
  const found = screen.getAllByTestId('download-row').find((r) => r.getAttribute('data-download-id') === String(id));
  if (!found) throw new Error(`no row ${id}`);
  return within(found);
}

function openAction(id: number, label: string) {
  fireEvent.click(row(id).getByTestId('row-actions'));
  fireEvent.click(row(id).getByRole('button', { name: label }));
}

/** Waits until every row's Downloads cell has its answer. */
async function columnLoaded() {
  await waitFor(() =>
    expect(screen.getAllByTestId('all-time-downloads').filter((cell) => cell.hasAttribute('data-loading'))).toEqual([]),
  );
}

function toasts() {
  return getToasts().map(({ type, message }) => ({ type, message }));
}

function lists(requests: MockRequest[]) {
  return requests.filter((r) => r.method === 'GET' && r.path === '/api/downloads/');
}

beforeEach(() => {
  window.history.replaceState(null, '', '/admin/downloads/');
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('AdminDownloads: the first page', () => {
  it('draws the embedded page, fetching only its Downloads column and how its announcements stand', async () => {
    const { requests, statusRequests } = setup();
    await columnLoaded();
    expect(requests).toEqual([]);
    // One call for the page's announcements; a package never announced shows nothing.
    await waitFor(() => expect(row(9).getByTestId('row-announcement').textContent).toBe(
      'Angekündigt am 01.06.2026 an 1.234 Kontakte (1.230 gesendet, 4 fehlgeschlagen)',
    ));
    expect(statusRequests.map((r) => r.url.searchParams.get('ids'))).toEqual(['9,8']);
    expect(row(8).queryByTestId('row-announcement')).toBeNull();
    expect(rowIds()).toEqual([9, 8]);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent?.trim());
    expect(headers).toEqual(['Anbieter', 'Beschreibung', 'Start', 'Ende', 'Geändert', 'Downloads', 'Dateien', 'Aktionen']);
    expect(row(9).getByText('BEENDET')).not.toBeNull();
    expect(row(9).getByText('30.06.2026').className).toBe('ap-date-expired');
    expect(row(9).getByText('01.06.2026')).not.toBeNull();
    expect(row(9).getByTestId('file-count').textContent).toBe('2');
    expect(row(8).getByRole('img', { name: 'Stadtwerke Nord' }).getAttribute('src')).toBe('/files/3/Logo.svg');
    expect(screen.getByTestId('loaded-total').textContent).toBe('2/2');
    expect(screen.getByTestId<HTMLButtonElement>('load-more').disabled).toBe(true);
  });

  it('disables the action menu of packages the user may not change', async () => {
    setup();
    await columnLoaded();
    expect(row(9).getByTestId<HTMLButtonElement>('row-actions').disabled).toBe(false);
    expect(row(8).getByTestId<HTMLButtonElement>('row-actions').disabled).toBe(true);
  });

  it('shows archived rows in the warning colour', async () => {
    setup(unexpected, { page: { content: [download(5, { archived: true, badge: 'ARCHIVIERT' })], count: 1 } });
    await columnLoaded();
    expect(screen.getByTestId('download-row').className).toBe('ap-row-archived');
  });
});

describe('AdminDownloads: sorting, filters and paging', () => {
  it('sorts by a column, toggling the direction, and keeps it in the address bar', async () => {
    const { requests } = setup(() => jsonResponse(200, { content: firstPage, count: 2 }));
    const header = () => screen.getByTestId('sort-name').closest('th');
    expect(header()?.getAttribute('aria-sort')).toBeNull();

    fireEvent.click(screen.getByTestId('sort-name'));
    await waitFor(() => expect(lists(requests)).toHaveLength(1));
    expect(lists(requests)[0]?.url.searchParams.get('sortBy')).toBe('name');
    expect(lists(requests)[0]?.url.searchParams.get('sort')).toBe('ASC');
    expect(header()?.getAttribute('aria-sort')).toBe('ascending');
    expect(window.location.search).toBe('?sortBy=name&sort=ASC');

    fireEvent.click(screen.getByTestId('sort-name'));
    await waitFor(() => expect(lists(requests)).toHaveLength(2));
    expect(lists(requests)[1]?.url.searchParams.get('sort')).toBe('DESC');
    expect(header()?.getAttribute('aria-sort')).toBe('descending');
  });

  it('loads 20 more from the current offset until all are loaded', async () => {
    const more = Array.from({ length: 3 }, (_, i) => download(100 + i));
    const { requests } = setup(() => jsonResponse(200, { content: more, count: 5 }), {
      page: { content: firstPage, count: 5 },
    });
    expect(screen.getByTestId('loaded-total').textContent).toBe('2/5');

    fireEvent.click(screen.getByTestId('load-more'));
    await waitFor(() => expect(screen.getByTestId('loaded-total').textContent).toBe('5/5'));
    const call = lists(requests)[0];
    expect(call?.url.searchParams.get('offset')).toBe('2');
    expect(call?.url.searchParams.get('limit')).toBe('20');
    expect(screen.getByTestId<HTMLButtonElement>('load-more').disabled).toBe(true);
  });

  it('filters archived packages and providers, counts and resets the filters', async () => {
    const archived = download(3, { archived: true, badge: 'ARCHIVIERT' });
    const { requests } = setup((request) =>
      jsonResponse(200, request.url.searchParams.get('archived') === 'true' ? { content: [archived], count: 1 } : { content: firstPage, count: 2 }),
    );
    fireEvent.click(screen.getByTestId('filters-toggle'));
    const panel = within(screen.getByTestId('filter-panel'));
    fireEvent.click(panel.getByLabelText('Archivierte Downloads anzeigen'));
    await waitFor(() => expect(rowIds()).toEqual([3]));
    fireEvent.click(panel.getByLabelText('Glasfaser Süd'));
    await waitFor(() => expect(lists(requests)).toHaveLength(2));
    expect(lists(requests)[1]?.url.searchParams.get('providerIds')).toBe('[2]');
    expect(screen.getByTestId('filter-count').textContent).toBe('2');

    fireEvent.click(screen.getByTestId('filters-reset'));
    await waitFor(() => expect(rowIds()).toEqual([9, 8]));
    const reset = lists(requests)[2];
    expect(reset?.url.searchParams.get('archived')).toBe('false');
    expect(reset?.url.searchParams.get('providerIds')).toBeNull();
    expect(screen.queryByTestId('filter-count')).toBeNull();
  });
});

describe('AdminDownloads: row actions', () => {
  it('puts a duplicate at the front of the list', async () => {
    const copy = download(10, { name: 'Sommeraktion (Kopie)' });
    const { requests } = setup((request) =>
      request.path === '/api/download/duplicate' ? jsonResponse(200, copy) : unexpected(),
    );
    openAction(9, 'Duplizieren');
    await waitFor(() => expect(rowIds()).toEqual([10, 9, 8]));
    expect(requests.at(-1)?.json).toEqual({ id: 9 });
    expect(screen.getByTestId('loaded-total').textContent).toBe('3/3');
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich angelegt' }]);
  });

  it('archives a package: it leaves the list of current packages', async () => {
    const { requests } = setup(() => jsonResponse(200, { id: 9, archived: true }));
    openAction(9, 'Archivieren');
    await waitFor(() => expect(rowIds()).toEqual([8]));
    expect(requests.at(-1)).toMatchObject({ method: 'PATCH', path: '/api/download/changeArchiveStatus/9' });
    expect(screen.getByTestId('loaded-total').textContent).toBe('1/1');
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich aktualisiert' }]);
  });

  it('deletes after confirmation', async () => {
    const { requests } = setup(() => jsonResponse(200, { id: 9, deleted: true }));
    openAction(9, 'Löschen');
    const modal = within(screen.getByTestId('delete-modal'));
    expect(modal.getByText('Download „Sommeraktion“ mit allen Dateien wirklich löschen?')).not.toBeNull();
    await act(async () => {
      fireEvent.click(modal.getByTestId('confirm-delete'));
      await Promise.resolve();
    });
    await waitFor(() => expect(rowIds()).toEqual([8]));
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/download/9' });
    expect(screen.queryByTestId('delete-modal')).toBeNull();
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich entfernt' }]);
  });

  it('reports a refused change as "Unerwarteter Fehler: Message: … Code: …"', async () => {
    setup(() => jsonResponse(403, { message: 'Keine Berechtigung.', code: 'forbidden' }));
    openAction(9, 'Archivieren');
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'error', message: 'Unerwarteter Fehler: Message: Keine Berechtigung. Code: forbidden' }]),
    );
    expect(rowIds()).toEqual([9, 8]);
  });

  it('shows the criteria of a package in a side panel, inactive ones struck through', async () => {
    setup();
    await columnLoaded();
    openAction(9, 'Kriterien anzeigen');
    expect(screen.getByTestId('criteria-panel').querySelector('.modal-dialog.ap-side-panel')).not.toBeNull();
    const panel = within(screen.getByTestId('criteria-panel'));
    expect(panel.getByText('Glasfaser Süd')).not.toBeNull();
    const items = panel.getAllByTestId('panel-criterion');
    expect(items.map((item) => item.textContent)).toEqual(['Glasfaser Privatkunden', 'Vorvermarktung Landkreis ARCHIVIERT']);
    expect(items[1]?.querySelector('.text-decoration-line-through')).not.toBeNull();
  });

  it('links an admin to the package history in the audit log, next to Statistik', async () => {
    setup(unexpected, { isAdmin: true });
    await columnLoaded();
    fireEvent.click(row(9).getByTestId('row-actions'));
    const menu = within(row(9).getByTestId('row-menu'));
    const history = menu.getByRole('link', { name: 'Verlauf' });
    expect(history.className).toBe('dropdown-item');
    expect(history.getAttribute('href')).toBe('/admin/audit?entity=package&entityId=9');
    expect(history.querySelector('.bi-clock-history')).not.toBeNull();
    const labels = Array.from(row(9).getByTestId('row-menu').querySelectorAll('.dropdown-item')).map((item) =>
      item.textContent?.trim(),
    );
    expect(labels.indexOf('Verlauf')).toBe(labels.indexOf('Statistik') + 1);
  });

  it('offers no history to users who are not admins (the default)', async () => {
    setup();
    await columnLoaded();
    fireEvent.click(row(9).getByTestId('row-actions'));
    const menu = within(row(9).getByTestId('row-menu'));
    expect(menu.getByRole('button', { name: 'Statistik' })).not.toBeNull();
    expect(menu.queryByRole('link', { name: 'Verlauf' })).toBeNull();
    expect(screen.queryByTestId('action-history')).toBeNull();
  });

  it('opens the settings modal, which only says the feature is in development', async () => {
    setup();
    await columnLoaded();
    fireEvent.click(screen.getByRole('button', { name: 'Download-Einstellungen' }));
    expect(within(screen.getByTestId('settings-modal')).getByText(SETTINGS_MESSAGE)).not.toBeNull();
  });
});

describe('AdminDownloads: downloads of all time', () => {
  const cell = (id: number) => row(id).getByTestId('all-time-downloads');

  it('asks once for the whole page and shows "–" for packages the answer leaves out', async () => {
    const page = [download(9), download(8), download(4, { name: 'Fremder Anbieter' })];
    const { columnRequests } = setup(unexpected, { page: { content: page, count: 3 } });
    await columnLoaded();
    expect(columnRequests.map((r) => r.url.searchParams.get('ids'))).toEqual(['9,8,4']);
    expect(cell(9).textContent).toBe('1.234');
    expect(cell(8).textContent).toBe('5');
    expect(cell(4).textContent).toBe('–keine Angabe');
    expect(cell(4).querySelector('[aria-hidden="true"]')?.textContent).toBe('–');
    expect(toasts()).toEqual([]);
  });

  it('asks only for the rows a further page brings, in one call', async () => {
    const more = [download(100), download(101), download(102)];
    const { columnRequests } = setup(() => jsonResponse(200, { content: more, count: 5 }), {
      page: { content: firstPage, count: 5 },
    });
    await columnLoaded();
    fireEvent.click(screen.getByTestId('load-more'));
    await waitFor(() => expect(rowIds()).toHaveLength(5));
    await columnLoaded();
    expect(columnRequests.map((r) => r.url.searchParams.get('ids'))).toEqual(['9,8', '100,101,102']);
    expect(cell(100).textContent).toBe('–keine Angabe');
  });

  it('shows "–" and says so once when the figures cannot be read', async () => {
    const mock = installFetch((request) => (request.path === ANNOUNCEMENTS ? jsonResponse(200, []) : unexpected()));
    render(
      <AdminDownloads
        page={{ content: firstPage, count: 2 }}
        query={{ limit: null, offset: null, sort: null, sortBy: null, archived: null, search: null, providerIds: null }}
        providers={providers}
        productName="Netzvermarktung"
        browserZipLimitMb={500}
      />,
    );
    await columnLoaded();
    expect(mock.requests.filter((r) => r.path === STATISTICS_DOWNLOADS)).toHaveLength(1);
    expect(cell(9).textContent).toBe('–keine Angabe');
    expect(toasts()).toEqual([{ type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!' }]);
  });
});

describe('AdminDownloads: statistics of a package', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 10:00 in Berlin on 1 July 2026.
    vi.setSystemTime(new Date('2026-07-01T08:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const stats = { downloads: 3, customers: 1, files: [{ id: 11, name: 'Datei 11.pdf', downloads: 3 }], days: [] };

  it('opens the last 30 days of the package, with who took it for an admin', async () => {
    const { requests } = setup(
      (request) =>
        jsonResponse(200, request.path.endsWith('/customers') ? { content: [], count: 0 } : stats),
      { isAdmin: true },
    );
    await columnLoaded();
    openAction(9, 'Statistik');
    const dialog = within(await screen.findByTestId('package-stats'));
    expect(dialog.getByRole('heading', { level: 2 }).textContent).toBe('Statistik: Sommeraktion');
    expect(dialog.getByTestId('package-stats-range').textContent).toBe('Zeitraum: 02.06.2026 – 01.07.2026');
    await waitFor(() => expect(dialog.getByTestId('package-downloads').textContent).toBe('3'));
    await dialog.findByTestId('no-customers');
    expect(requests.map((r) => `${r.path}?${r.url.searchParams.toString()}`).sort()).toEqual([
      '/api/statistics/packages/9/customers?from=2026-06-02&to=2026-07-01',
      '/api/statistics/packages/9?from=2026-06-02&to=2026-07-01',
    ]);
  });

  it('shows a moderator the figures without the customers', async () => {
    const { requests } = setup(() => jsonResponse(200, stats));
    await columnLoaded();
    openAction(9, 'Statistik');
    const dialog = within(await screen.findByTestId('package-stats'));
    await waitFor(() => expect(dialog.getByTestId('package-downloads').textContent).toBe('3'));
    expect(dialog.queryByTestId('package-customer-section')).toBeNull();
    expect(requests.map((r) => r.path)).toEqual(['/api/statistics/packages/9']);
  });
});

describe('AdminDownloads: download manager', () => {
  it('says so when a package has no files', async () => {
    setup(unexpected, { page: { content: [download(4, { Uploads: [] })], count: 1 } });
    await columnLoaded();
    openAction(4, 'Dateien herunterladen');
    const manager = within(screen.getByTestId('download-manager'));
    expect(manager.getByTestId('nothing-selected').textContent).toBe('Keine Downloads ausgewählt!');
    expect(manager.getByTestId<HTMLButtonElement>('start-download').disabled).toBe(true);
  });

  it("leaves a package over the browser limit to the browser's own download", async () => {
    const { requests } = setup(unexpected, { browserZipLimitMb: 0 });
    await columnLoaded();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    openAction(9, 'Dateien herunterladen');
    const manager = within(screen.getByTestId('download-manager'));
    fireEvent.click(manager.getByTestId('start-download'));
    expect(clicked).toEqual(['/api/download/9/zip']);
    expect(requests).toEqual([]);
    expect(manager.getByTestId('manager-status').textContent).toContain('Der Download läuft im Browser weiter');
  });

  it('downloads the package ZIP with progress and saves it under the server name', async () => {
    const bytes = new Uint8Array(300);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    setup(async (request) => {
      expect(request.path).toBe('/api/download/9/zip');
      await gate;
      return new Response(bytes, {
        status: 200,
        headers: {
          'Content-Length': '300',
          'Content-Disposition': `attachment; filename="x.zip"; filename*=UTF-8''2026-06-01_Netzvermarktung%20Aktionsportal.zip`,
        },
      });
    }, { page: { content: [download(9, { Uploads: [file(1, { size: 100 }), file(2, { size: 200 })] })], count: 1 } });
    const createObjectURL = vi.fn(() => 'blob:zip');
    vi.spyOn(URL, 'createObjectURL').mockImplementation(createObjectURL);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });

    openAction(9, 'Dateien herunterladen');
    const manager = within(screen.getByTestId('download-manager'));
    expect(manager.getByText('2 Dateien, zusammen 300 Bytes')).not.toBeNull();
    fireEvent.click(manager.getByTestId('start-download'));
    expect(manager.getByTestId('manager-status').getAttribute('data-phase')).toBe('downloading');
    // Busy: it can be neither closed nor restarted.
    for (const button of manager.getAllByRole('button')) expect(button.hasAttribute('disabled')).toBe(true);

    release();
    await waitFor(() => expect(clicked).toEqual(['2026-06-01_Netzvermarktung Aktionsportal.zip']));
    await waitFor(() => expect(manager.getByTestId('manager-status').getAttribute('data-phase')).toBe('idle'));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual([
      { type: 'info', message: 'Dateien werden heruntergeladen …' },
      { type: 'success', message: 'Die Dateien wurden in eine ZIP-Datei gepackt.' },
    ]);
  });

  it('shows each file with its own progress while the ZIP streams', async () => {
    const files = [file(1, { name: 'flyer.pdf', size: 100 }), file(2, { name: 'plakat.png', size: 200 })];
    let push: (bytes: Uint8Array) => void = () => {};
    let end: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (bytes) => controller.enqueue(bytes);
        end = () => controller.close();
      },
    });
    const first = localHeader('Sommeraktion/flyer.pdf', 100);
    const second = localHeader('Sommeraktion/plakat.png', 200);
    const length = first.length + 100 + second.length + 200;
    setup(() => new Response(body, { status: 200, headers: { 'Content-Length': String(length) } }), {
      page: { content: [download(9, { Uploads: files })], count: 1 },
    });
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:zip');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    openAction(9, 'Dateien herunterladen');
    const manager = within(screen.getByTestId('download-manager'));
    fireEvent.click(manager.getByTestId('start-download'));
    const bar = (name: string) => manager.getByRole('progressbar', { name: `Fortschritt von ${name}` });
    await waitFor(() => expect(bar('flyer.pdf').getAttribute('aria-valuenow')).toBe('0'));
    expect(bar('plakat.png').getAttribute('aria-valuenow')).toBe('0');

    // Half of the first file.
    push(concat(first, new Uint8Array(50)));
    await waitFor(() => expect(bar('flyer.pdf').getAttribute('aria-valuenow')).toBe('50'));
    expect(bar('plakat.png').getAttribute('aria-valuenow')).toBe('0');

    // The first complete, a quarter of the second.
    push(concat(new Uint8Array(50), second, new Uint8Array(50)));
    await waitFor(() => expect(bar('plakat.png').getAttribute('aria-valuenow')).toBe('25'));
    expect(bar('flyer.pdf').getAttribute('aria-valuenow')).toBe('100');
    expect(manager.getAllByTestId('manager-file-progress').map((el) => el.textContent)).toEqual(['100 %', '25 %']);

    push(new Uint8Array(150));
    end();
    await waitFor(() => expect(manager.getByTestId('manager-status').getAttribute('data-phase')).toBe('idle'));
    // Idle again: no file bars.
    expect(manager.queryAllByRole('progressbar')).toEqual([]);
  });
});
