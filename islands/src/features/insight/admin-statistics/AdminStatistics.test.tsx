import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler, MockRequest } from '../../../test/fetchMock';
import AdminStatistics from './AdminStatistics';
import type { AdminStatisticsProps } from './AdminStatistics';
import { drawDayChart } from './uplotChart';
import { customersPage, days, packageMails, packageStatistics, providerShares, summary } from './fixtures';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));
// uPlot draws on a canvas, which the test DOM lacks; the chart module's own test checks it.
vi.mock('./uplotChart', () => ({ drawDayChart: vi.fn(() => ({ destroy: vi.fn() })) }));

const TODAY = '2026-07-01';
const providers = [
  { id: 1, name: 'Stadtwerke Nord' },
  { id: 2, name: 'Glasfaser Süd' },
];
const RANGE_MESSAGE = 'Der Zeitraum darf höchstens 367 Tage umfassen.';

/** Answers the statistics calls with the fixtures; `override` may answer first. */
function statisticsApi(override?: (request: MockRequest) => Response | null): MockHandler {
  return (request) => {
    const answer = override?.(request);
    if (answer) return answer;
    if (request.path === '/api/statistics/summary') return jsonResponse(200, summary());
    if (request.path === '/api/statistics/providers') return jsonResponse(200, providerShares());
    if (request.path === '/api/statistics/mails') return jsonResponse(200, [packageMails()]);
    if (/^\/api\/statistics\/packages\/\d+$/.test(request.path)) return jsonResponse(200, packageStatistics());
    if (/^\/api\/statistics\/packages\/\d+\/customers$/.test(request.path)) return jsonResponse(200, customersPage());
    return jsonResponse(500, { message: 'unerwartet', code: 'internal' });
  };
}

function setup(handler: MockHandler = statisticsApi(), props: Partial<AdminStatisticsProps> = {}) {
  const mock = installFetch(handler);
  render(<AdminStatistics isAdmin providers={providers} today={TODAY} {...props} />);
  return mock;
}

const calls = (requests: MockRequest[], path: string) => requests.filter((r) => r.path === path);
const summaries = (requests: MockRequest[]) => calls(requests, '/api/statistics/summary');
const query = (request: MockRequest | undefined) => Object.fromEntries(request?.url.searchParams ?? []);

async function loaded() {
  await waitFor(() => expect(screen.getByTestId('statistics-figures').getAttribute('aria-busy')).toBe('false'));
  await screen.findByTestId('totals');
}

function toasts() {
  return getToasts().map(({ type, message }) => ({ type, message }));
}

beforeEach(() => {
  window.history.replaceState(null, '', '/admin/statistics');
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('AdminStatistics: the range', () => {
  it('starts with the 30 days up to today and links the CSV of that range', async () => {
    const { requests } = setup();
    expect(screen.getByLabelText<HTMLInputElement>('Von').value).toBe('2026-06-02');
    expect(screen.getByLabelText<HTMLInputElement>('Bis').value).toBe(TODAY);
    expect(screen.getByLabelText<HTMLSelectElement>('Anbieter').value).toBe('');
    await loaded();
    expect(summaries(requests).map(query)).toEqual([{ from: '2026-06-02', to: TODAY }]);
    expect(calls(requests, '/api/statistics/providers').map(query)).toEqual([{ from: '2026-06-02', to: TODAY }]);
    expect(screen.getByTestId('csv-export').getAttribute('href')).toBe(
      '/api/statistics/packages.csv?from=2026-06-02&to=2026-07-01',
    );
    expect(screen.getByTestId('shown-view').textContent).toBe('Zahlen für 02.06.2026 – 01.07.2026, alle Anbieter.');
    // The default view leaves the address bar as it is.
    expect(window.location.search).toBe('');
  });

  it('loads the figures of a changed range, with the shares, and keeps it in the address bar', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.change(screen.getByLabelText('Von'), { target: { value: '2026-05-01' } });
    await waitFor(() => expect(summaries(requests)).toHaveLength(2));
    expect(query(summaries(requests)[1])).toEqual({ from: '2026-05-01', to: TODAY });
    expect(query(calls(requests, '/api/statistics/providers')[1])).toEqual({ from: '2026-05-01', to: TODAY });
    await waitFor(() => expect(window.location.search).toBe('?from=2026-05-01&to=2026-07-01'));
    expect(screen.getByTestId('csv-export').getAttribute('href')).toBe(
      '/api/statistics/packages.csv?from=2026-05-01&to=2026-07-01',
    );
  });

  it('loads nothing while a date is empty', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.change(screen.getByLabelText('Bis'), { target: { value: '' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(summaries(requests)).toHaveLength(1);
  });

  it('starts with the range and provider of the address bar', async () => {
    window.history.replaceState(null, '', '/admin/statistics?from=2026-01-01&to=2026-01-31&providerId=2');
    const { requests } = setup();
    await loaded();
    expect(query(summaries(requests)[0])).toEqual({ from: '2026-01-01', to: '2026-01-31', providerId: '2' });
    expect(screen.getByLabelText<HTMLSelectElement>('Anbieter').value).toBe('2');
  });

  it("shows the server's message for a refused range and keeps the figures shown", async () => {
    const { requests } = setup(
      statisticsApi((request) =>
        request.url.searchParams.get('from') === '2024-01-01'
          ? jsonResponse(400, { message: RANGE_MESSAGE, code: 'validation_error' })
          : null,
      ),
    );
    await loaded();
    fireEvent.change(screen.getByLabelText('Von'), { target: { value: '2024-01-01' } });
    await waitFor(() => expect(toasts()).toEqual([{ type: 'error', message: RANGE_MESSAGE }]));
    expect(summaries(requests)).toHaveLength(2);
    expect(screen.getByTestId('range-error').textContent).toBe(RANGE_MESSAGE);
    expect(screen.getByLabelText('Von').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Von').getAttribute('aria-describedby')).toBe(screen.getByTestId('range-error').id);
    // The figures of the range before stay, and so do the CSV link and the address bar.
    expect(screen.getByTestId('total-downloads').textContent).toBe('12.345');
    expect(screen.getByTestId('shown-view').textContent).toContain('02.06.2026 – 01.07.2026');
    expect(screen.getByTestId('csv-export').getAttribute('href')).toContain('from=2026-06-02');
    expect(window.location.search).toBe('');

    fireEvent.change(screen.getByLabelText('Von'), { target: { value: '2026-06-10' } });
    await waitFor(() => expect(screen.queryByTestId('range-error')).toBeNull());
  });
});

describe('AdminStatistics: the provider', () => {
  it('loads the figures of the chosen provider, and of all again', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    await waitFor(() => expect(summaries(requests)).toHaveLength(2));
    expect(query(summaries(requests)[1])).toEqual({ from: '2026-06-02', to: TODAY, providerId: '2' });
    await waitFor(() => expect(screen.getByTestId('shown-view').textContent).toContain('Glasfaser Süd'));
    expect(window.location.search).toBe('?providerId=2');
    // The shares are per provider anyway: not asked again for another provider.
    expect(calls(requests, '/api/statistics/providers')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '' } });
    await waitFor(() => expect(summaries(requests)).toHaveLength(3));
    expect(query(summaries(requests)[2])).toEqual({ from: '2026-06-02', to: TODAY });
  });

  it('chooses the provider of a row of the shares table', async () => {
    const { requests } = setup();
    await loaded();
    const rows = await screen.findAllByTestId<HTMLTableRowElement>('provider-share-row');
    expect(rows.map((row) => Array.from(row.cells, (cell) => cell.textContent))).toEqual([
      ['Stadtwerke Nord', '3', '4', '75\u00a0%'],
      ['Glasfaser Süd', '1', '8', '12,5\u00a0%'],
    ]);
    fireEvent.click(within(rows[0] as HTMLElement).getByRole('button', { name: 'Stadtwerke Nord' }));
    await waitFor(() => expect(query(summaries(requests)[1])).toMatchObject({ providerId: '1' }));
    expect(screen.getByLabelText<HTMLSelectElement>('Anbieter').value).toBe('1');
    expect(within(rows[0] as HTMLElement).getByRole('button').getAttribute('aria-pressed')).toBe('true');
  });

  it('offers all the providers the user manages', async () => {
    setup();
    await loaded();
    const options = Array.from(screen.getByLabelText<HTMLSelectElement>('Anbieter').options, (o) => o.textContent);
    expect(options).toEqual(['Alle Anbieter', 'Stadtwerke Nord', 'Glasfaser Süd']);
  });
});

describe('AdminStatistics: the figures', () => {
  it('shows the totals in German', async () => {
    setup();
    await loaded();
    expect(screen.getByTestId('total-downloads').textContent).toBe('12.345');
    expect(screen.getByTestId('total-customers').textContent).toBe('42');
    expect(screen.getByTestId('total-zip-share').textContent).toBe('75\u00a0%');
  });

  it('draws the chart lazily, with a summary as its text and every day as a table', async () => {
    setup();
    await loaded();
    const chart = screen.getAllByTestId('day-chart')[0] as HTMLElement;
    expect(chart.getAttribute('role')).toBe('img');
    expect(chart.getAttribute('aria-label')).toBe(
      'Downloads je Tag vom 02.06.2026 bis 01.07.2026: insgesamt 46, die meisten am 05.06.2026 mit 17.',
    );
    await waitFor(() => expect(drawDayChart).toHaveBeenCalledWith(chart, summary().days));

    const toggle = screen.getByRole('button', { name: 'Als Tabelle anzeigen' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const rows = screen.getAllByTestId('day-row');
    expect(rows).toHaveLength(30);
    expect(Array.from((rows[3] as HTMLTableRowElement).cells, (c) => c.textContent)).toEqual(['05.06.2026', '17']);
  });

  it('opens the table of days from the Downloads total, with the focus on it', async () => {
    setup();
    await loaded();
    fireEvent.click(screen.getByTestId('total-downloads-button'));
    const table = screen.getByTestId('day-table');
    expect(table.closest('[hidden]')).toBeNull();
    expect(document.activeElement?.contains(table)).toBe(true);
  });

  it('moves from the Händler total to the shares per provider', async () => {
    setup();
    await loaded();
    fireEvent.click(screen.getByTestId('total-customers-button'));
    expect(document.activeElement?.textContent).toBe('Anteil der Händler je Anbieter');
  });

  it('lists the top packages and files, and links the untouched packages to their form', async () => {
    setup();
    await loaded();
    const packages = screen.getAllByTestId('top-package-row');
    expect(packages.map((row) => row.textContent)).toEqual([
      'Glasfaser-Sommeraktion Privatkunden900',
      'Stadtwerke Nord Strom-Wechselbonus40',
    ]);
    expect(screen.getAllByTestId('top-file-row').map((row) => row.textContent)).toEqual([
      'Flyer Glasfaser Sommeraktion.pdf600',
      'Alter Flyer.pdf3',
    ]);
    const untouched = within(screen.getByTestId('untouched-packages')).getByRole('link', {
      name: 'Energie Plus Ökostrom Frühjahr',
    });
    expect(untouched.getAttribute('href')).toBe('/admin/download/edit/12');
  });
});

describe('AdminStatistics: each view as CSV', () => {
  /** The summary's views: test id, `view=…` and what the link is named after. */
  const VIEWS = [
    ['csv-days', 'days', 'Downloads je Tag'],
    ['csv-packages', 'packages', 'Meistgeladene Downloads'],
    ['csv-files', 'files', 'Meistgeladene Dateien'],
    ['csv-untouched', 'untouched', 'Unberührte Downloads'],
    ['csv-providers', 'providers', 'Anteil der Händler je Anbieter'],
  ] as const;

  const href = (testId: string) => screen.getByTestId(testId).getAttribute('href');
  const hrefs = () => Object.fromEntries(VIEWS.map(([testId]) => [testId, href(testId)]));
  const exportHref = (view: string, search: string) => `/api/statistics/export.csv?view=${view}&${search}`;

  /** The links for a range (`from=…&to=…`) and, but for the shares, the provider. */
  function expected(range: string, providerId?: number) {
    const provider = providerId === undefined ? '' : `&providerId=${providerId}`;
    return Object.fromEntries(
      VIEWS.map(([testId, view]) => [testId, exportHref(view, view === 'providers' ? range : `${range}${provider}`)]),
    );
  }

  it("links each view's CSV in its section's header, named after the section", async () => {
    setup();
    await loaded();
    expect(hrefs()).toEqual(expected('from=2026-06-02&to=2026-07-01'));
    for (const [testId, , title] of VIEWS) {
      const link = screen.getByRole('link', { name: `CSV: ${title}` });
      expect(link).toBe(screen.getByTestId(testId));
      expect(link.textContent).toBe('CSV');
      expect(link.hasAttribute('download')).toBe(true);
      expect(link.className).toBe('btn btn-outline-secondary btn-sm');
      // In the section it exports, whose heading names it.
      const section = link.closest('section') as HTMLElement;
      expect(document.getElementById(section.getAttribute('aria-labelledby') ?? '')?.textContent).toBe(title);
    }
    // The CSV of the range's packages stays as it was.
    expect(href('csv-export')).toBe('/api/statistics/packages.csv?from=2026-06-02&to=2026-07-01');
  });

  it('adds the chosen provider, but not to the shares per provider, and drops it for all', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    await waitFor(() => expect(screen.getByTestId('shown-view').textContent).toContain('Glasfaser Süd'));
    expect(hrefs()).toEqual(expected('from=2026-06-02&to=2026-07-01', 2));
    expect(href('csv-providers')).not.toContain('providerId');

    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '' } });
    await waitFor(() => expect(summaries(requests)).toHaveLength(3));
    await waitFor(() => expect(screen.getByTestId('shown-view').textContent).toContain('alle Anbieter'));
    expect(hrefs()).toEqual(expected('from=2026-06-02&to=2026-07-01'));
    for (const [testId] of VIEWS) expect(href(testId)).not.toContain('providerId');
  });

  it('starts with the provider of the address bar', async () => {
    window.history.replaceState(null, '', '/admin/statistics?from=2026-01-01&to=2026-01-31&providerId=1');
    setup();
    await loaded();
    expect(hrefs()).toEqual(expected('from=2026-01-01&to=2026-01-31', 1));
  });

  it('follows the figures shown, not a choice still loading or refused', async () => {
    let answer: (response: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const { requests } = setup((request) => {
      if (request.url.searchParams.get('from') === '2024-01-01') {
        return jsonResponse(400, { message: RANGE_MESSAGE, code: 'validation_error' });
      }
      if (request.path === '/api/statistics/summary' && request.url.searchParams.get('providerId') === '1') return pending;
      return statisticsApi()(request);
    });
    await loaded();
    const before = expected('from=2026-06-02&to=2026-07-01');

    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '1' } });
    await waitFor(() => expect(summaries(requests)).toHaveLength(2));
    expect(screen.getByTestId('statistics-figures').getAttribute('aria-busy')).toBe('true');
    expect(hrefs()).toEqual(before);
    await act(async () => {
      answer(jsonResponse(200, summary()));
      await pending;
    });
    await waitFor(() => expect(screen.getByTestId('shown-view').textContent).toContain('Stadtwerke Nord'));
    expect(hrefs()).toEqual(expected('from=2026-06-02&to=2026-07-01', 1));

    fireEvent.change(screen.getByLabelText('Von'), { target: { value: '2024-01-01' } });
    await screen.findByTestId('range-error');
    expect(hrefs()).toEqual(expected('from=2026-06-02&to=2026-07-01', 1));
    expect(href('csv-export')).toBe('/api/statistics/packages.csv?from=2026-06-02&to=2026-07-01');
  });
});

describe('AdminStatistics: a package', () => {
  async function openFirstPackage(props: Partial<AdminStatisticsProps> = {}) {
    const mock = setup(statisticsApi(), props);
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Glasfaser-Sommeraktion Privatkunden' }));
    const dialog = await screen.findByTestId('package-stats');
    await within(dialog).findByTestId('package-totals');
    return { ...mock, dialog: within(dialog) };
  }

  it('opens its figures for the same range: totals, days and files', async () => {
    const { requests, dialog } = await openFirstPackage();
    expect(dialog.getByRole('heading', { level: 2 }).textContent).toBe('Statistik: Glasfaser-Sommeraktion Privatkunden');
    expect(query(calls(requests, '/api/statistics/packages/7')[0])).toEqual({ from: '2026-06-02', to: TODAY });
    expect(dialog.getByTestId('package-downloads').textContent).toBe('900');
    expect(dialog.getByTestId('package-customers').textContent).toBe('12');
    expect(dialog.getAllByTestId('package-file-row').map((row) => row.textContent)).toEqual([
      'Flyer Glasfaser Sommeraktion.pdf600',
      'Banner Glasfaser Sommeraktion.png300',
    ]);
    expect(dialog.getByTestId('day-chart').getAttribute('aria-label')).toContain('insgesamt 900');
  });

  it("links its files' CSV for its own range and id, whatever the provider", async () => {
    window.history.replaceState(null, '', '/admin/statistics?from=2026-01-01&to=2026-01-31&providerId=2');
    const { dialog } = await openFirstPackage();
    const link = dialog.getByRole('link', { name: 'CSV: Dateien' });
    expect(link).toBe(dialog.getByTestId('csv-package'));
    expect(link.getAttribute('href')).toBe(
      '/api/statistics/export.csv?view=package&from=2026-01-01&to=2026-01-31&packageId=7',
    );
    expect(link.textContent).toBe('CSV');
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.className).toBe('btn btn-outline-secondary btn-sm');
    expect(within(dialog.getByTestId('package-files')).getByTestId('csv-package')).toBe(link);
    // The dialog's days have no CSV of their own; the page's days keep theirs.
    expect(within(dialog.getByTestId('package-days')).queryByTestId('csv-days')).toBeNull();
    expect(screen.getAllByTestId('csv-days')).toHaveLength(1);
  });

  it('links the CSV of a package opened from a top file by that package', async () => {
    setup();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Alter Flyer.pdf' }));
    const dialog = within(await screen.findByTestId('package-stats'));
    expect((await dialog.findByTestId('csv-package')).getAttribute('href')).toBe(
      '/api/statistics/export.csv?view=package&from=2026-06-02&to=2026-07-01&packageId=99',
    );
  });

  it('shows an admin who took it, with the last download in German time', async () => {
    const { requests, dialog } = await openFirstPackage();
    expect(query(calls(requests, '/api/statistics/packages/7/customers')[0])).toEqual({ from: '2026-06-02', to: TODAY });
    const section = within(dialog.getByTestId('package-customer-section'));
    expect(section.getByRole('heading', { name: 'Wer hat geladen?' })).not.toBeNull();
    const row = await section.findByTestId('customer-row');
    expect(Array.from((row as HTMLTableRowElement).cells, (c) => c.textContent)).toEqual([
      '100001',
      '5',
      '30.06.2026, 16:07',
    ]);
  });

  it('shows a moderator no customers and does not ask for them', async () => {
    const { requests, dialog } = await openFirstPackage({ isAdmin: false });
    expect(dialog.queryByTestId('package-customer-section')).toBeNull();
    expect(requests.filter((r) => r.path.endsWith('/customers'))).toEqual([]);
  });

  it('opens the package of a top file, named by number when it is not among the top packages', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Alter Flyer.pdf' }));
    const dialog = within(await screen.findByTestId('package-stats'));
    expect(dialog.getByRole('heading', { level: 2 }).textContent).toBe('Statistik: Download Nr. 99');
    await waitFor(() => expect(calls(requests, '/api/statistics/packages/99')).toHaveLength(1));
  });

  it('closes with Escape and gives the focus back', async () => {
    setup();
    await loaded();
    const button = screen.getByRole('button', { name: 'Glasfaser-Sommeraktion Privatkunden' });
    button.focus();
    fireEvent.click(button);
    await screen.findByTestId('package-stats');
    await act(async () => {
      fireEvent.keyDown(document, { key: 'Escape' });
      await Promise.resolve();
    });
    expect(screen.queryByTestId('package-stats')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('AdminStatistics: days of a year', () => {
  it('draws a long range without trouble', async () => {
    setup(
      statisticsApi((request) =>
        request.path === '/api/statistics/summary'
          ? jsonResponse(200, summary({ days: days('2025-07-02', TODAY), downloads: 0 }))
          : null,
      ),
    );
    await loaded();
    expect(screen.getAllByTestId('day-chart')[0]?.getAttribute('aria-label')).toBe(
      'Downloads je Tag vom 02.07.2025 bis 01.07.2026: keine Downloads.',
    );
  });
});

describe('AdminStatistics: what the mails brought', () => {
  it('lists each mailed package with its figures and CSV, and opens its own figures', async () => {
    const { requests } = setup(
      statisticsApi((request) =>
        /^\/api\/statistics\/packages\/7$/.test(request.path)
          ? jsonResponse(200, packageStatistics({ mails: packageMails() }))
          : null,
      ),
    );
    await loaded();
    const row = await screen.findByTestId('mail-figures-row');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['Glasfaser Sommeraktion', '1.234', '4', '3', '210', '120 von 400 Kundennummern (30\u00a0%)']);
    expect(query(calls(requests, '/api/statistics/mails')[0])).toEqual({ from: '2026-06-02', to: TODAY });
    expect(screen.getByTestId('csv-mails').getAttribute('href')).toBe(
      `/api/statistics/export.csv?view=mails&from=2026-06-02&to=${TODAY}`,
    );

    fireEvent.click(within(row).getByRole('button', { name: 'Glasfaser Sommeraktion' }));
    const dialog = within(await screen.findByTestId('package-mails'));
    expect(dialog.getByTestId('mail-sent').textContent).toBe('1.234');
    expect(dialog.getByTestId('mail-downloads').textContent).toBe('210');
    expect(dialog.getByTestId('mail-took').textContent).toBe('120 von 400 Kundennummern (30\u00a0%)');
  });

  it('says so when no package was mailed, and follows the chosen provider', async () => {
    const { requests } = setup(
      statisticsApi((request) => (request.path === '/api/statistics/mails' ? jsonResponse(200, []) : null)),
    );
    await loaded();
    expect((await screen.findByTestId('no-mails')).textContent).toContain('kein Paket per E-Mail angekündigt');
    fireEvent.change(screen.getByLabelText('Anbieter'), { target: { value: '2' } });
    await waitFor(() => expect(calls(requests, '/api/statistics/mails')).toHaveLength(2));
    expect(query(calls(requests, '/api/statistics/mails')[1])).toEqual({ from: '2026-06-02', to: TODAY, providerId: '2' });
  });
});
