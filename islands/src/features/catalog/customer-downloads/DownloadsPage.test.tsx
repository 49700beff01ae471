import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import { DownloadsPage } from './DownloadsPage';
import { DEFAULT_STATE } from './listState';
import { Toolbar } from './Toolbar';
import type { CustomerDownloadsProps } from './props';
import { download, file } from './testData';
import { TOUR_FLAG_KEY } from './tour/tourFlag';

function props(extra: Partial<CustomerDownloadsProps> = {}): CustomerDownloadsProps {
  return {
    page: {
      content: [
        download(1, [file(11, 1, 'Flyer.pdf', { tagsIds: [1], badge: 'NEU' }), file(12, 1, 'Plakat.svg')], {
          badge: 'LÄUFT IN KÜRZE AB',
        }),
        download(2, [], { name: 'Leeres Paket', badge: 'BEVORSTEHENDE' }),
      ],
      count: 25,
    },
    query: {},
    tags: [{ id: 1, name: 'Flyer', icon: 'bi bi-file-earmark-pdf' }],
    providers: [
      { id: 1, name: 'Glasfaser Süd', allowedRoles: [], Upload: null },
      { id: 2, name: 'Stadtwerke Nord', allowedRoles: [], Upload: null },
    ],
    productName: 'E2E',
    browserZipLimitMb: 500,
    ...extra,
  };
}

beforeEach(() => {
  window.localStorage.setItem(TOUR_FLAG_KEY, 'x');
  window.history.replaceState(null, '', '/user/downloads');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('customer downloads page', () => {
  it('shows the packages with their badges, a warning for a package without files and loaded/total', () => {
    installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    render(<DownloadsPage {...props()} />);
    const rows = screen.getAllByTestId('download-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('LÄUFT IN KÜRZE AB').className).toContain('ap-badge-ending-soon');
    expect(within(rows[0]!).getByText('NEU')).toBeTruthy();
    expect(within(rows[0]!).getByText('Tags: Flyer')).toBeTruthy();
    expect(within(rows[1]!).getByText('BEVORSTEHENDE')).toBeTruthy();
    expect(within(rows[1]!).getByTestId('no-files').textContent).toContain('Keine Dateien');
    expect(screen.getByTestId('loaded-total').textContent).toBe('2/25');
    expect(screen.getByRole('link', { name: 'Flyer.pdf herunterladen' }).getAttribute('href')).toBe('/files/11/Flyer.pdf');
  });

  it('counts chosen files on the manager button, per file, per package and for all', () => {
    installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    render(<DownloadsPage {...props()} />);
    const count = () => screen.getByTestId('selected-count').textContent;
    expect(count()).toBe('0');
    fireEvent.click(screen.getByLabelText('Flyer.pdf auswählen'));
    expect(count()).toBe('1');
    const packageBox = screen.getByLabelText<HTMLInputElement>('Alle Dateien von Paket 1 auswählen');
    expect(packageBox.indeterminate).toBe(true);
    fireEvent.click(screen.getByTestId('select-all'));
    expect(count()).toBe('2');
    expect(packageBox.checked).toBe(true);
    fireEvent.click(screen.getByTestId('select-all'));
    expect(count()).toBe('0');
  });

  it('filters at once, shows the count of active filters and keeps them in the address bar', async () => {
    const { requests } = installFetch(() => jsonResponse(200, { content: [download(3, [])], count: 1 }));
    render(<DownloadsPage {...props()} />);
    expect(screen.queryByTestId('filter-count')).toBeNull();
    fireEvent.click(screen.getByLabelText('Stadtwerke Nord'));
    fireEvent.click(screen.getByLabelText('Archivierte Downloads anzeigen'));
    await waitFor(() => expect(screen.getByTestId('loaded-total').textContent).toBe('1/1'));
    expect(screen.getByTestId('filter-count').textContent).toBe('2 aktiv');
    const last = requests.at(-1)!;
    expect(last.path).toBe('/api/downloads/contact/');
    expect(last.url.searchParams.get('providerIds')).toBe('[2]');
    expect(last.url.searchParams.get('archived')).toBe('true');
    expect(window.location.search).toBe('?archived=true&providerIds=%5B2%5D');

    fireEvent.click(screen.getByTestId('filters-reset'));
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(screen.queryByTestId('filter-count')).toBeNull();
  });

  it('searches after a pause in typing and drops the stale request', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    let answerStale: (response: Response) => void = () => {};
    const { requests } = installFetch((request) =>
      request.url.searchParams.get('searchMethode') === 'byName'
        ? new Promise<Response>((resolve) => (answerStale = resolve))
        : jsonResponse(200, { content: [], count: 0 }),
    );
    const mockedFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo, init: RequestInit = {}) => {
      if (init.signal) signals.push(init.signal);
      return mockedFetch(input, init);
    });
    render(<DownloadsPage {...props()} />);
    const box = screen.getByLabelText('Suchbegriff');
    fireEvent.change(box, { target: { value: 'Fl' } });
    fireEvent.change(box, { target: { value: 'Flyer' } });
    await act(() => vi.advanceTimersByTimeAsync(299));
    expect(requests).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(requests.map((r) => r.url.searchParams.get('search'))).toEqual(['Flyer']);
    // A newer question aborts the one still under way; its late answer changes nothing.
    fireEvent.change(screen.getByLabelText('Suchen nach'), { target: { value: 'byFilename' } });
    expect(signals[0]?.aborted).toBe(true);
    vi.useRealTimers();
    await waitFor(() => expect(screen.getByTestId('no-matches')).toBeTruthy());
    answerStale(jsonResponse(200, { content: [download(9, [])], count: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.getByTestId('no-matches')).toBeTruthy();
    expect(requests.at(-1)?.url.searchParams.get('searchMethode')).toBe('byFilename');
    expect(window.location.search).toBe('?search=Flyer&searchMethode=byFilename');
  });

  it('loads 20 more and says when no more exist', async () => {
    const more = Array.from({ length: 3 }, (_, i) => download(10 + i, []));
    const { requests } = installFetch(() => jsonResponse(200, { content: more, count: 5 }));
    render(<DownloadsPage {...props({ page: { content: props().page.content, count: 5 } })} />);
    fireEvent.click(screen.getByTestId('load-more'));
    await waitFor(() => expect(screen.getByTestId('loaded-total').textContent).toBe('5/5'));
    expect(requests[0]?.url.searchParams.get('offset')).toBe('2');
    expect(requests[0]?.url.searchParams.get('limit')).toBe('20');
    expect(screen.getByTestId('no-more').textContent).toBe('Keine weiteren Downloads vorhanden.');
  });

  it('closes the filter panel on a press outside it and on Escape', () => {
    installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    render(<DownloadsPage {...props()} />);
    const details = screen.getByTestId('filters-toggle').closest('details')!;
    act(() => {
      details.open = true;
      details.dispatchEvent(new Event('toggle'));
    });
    fireEvent.pointerDown(screen.getByLabelText('Stadtwerke Nord'));
    expect(details.open).toBe(true);
    fireEvent.pointerDown(document.body);
    expect(details.open).toBe(false);
    act(() => {
      details.open = true;
      details.dispatchEvent(new Event('toggle'));
    });
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(details.open).toBe(false);
  });

  it('leaves the filter panel to the tour while it runs: a press on its tooltip does not close it', () => {
    const onFiltersOpen = vi.fn();
    const toolbar = (tourRunning: boolean) => (
      <Toolbar
        state={DEFAULT_STATE}
        onChange={() => {}}
        tags={[]}
        providers={[]}
        filtersOpen={true}
        onFiltersOpen={onFiltersOpen}
        selectedCount={0}
        onOpenManager={() => {}}
        onStartTour={() => {}}
        tourRunning={tourRunning}
      />
    );
    const { rerender } = render(toolbar(true));
    // Where the tour's "Weiter" is: outside the panel.
    fireEvent.pointerDown(document.body);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onFiltersOpen).not.toHaveBeenCalled();

    rerender(toolbar(false));
    fireEvent.pointerDown(document.body);
    expect(onFiltersOpen).toHaveBeenCalledWith(false);
  });

  it('explains an empty list to a dealer without packages', () => {
    render(<DownloadsPage {...props({ page: { content: [], count: 0 } })} />);
    expect(screen.getByTestId('no-packages').textContent).toContain('Noch keine Download-Pakete');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('opens a thumbnail in the preview dialog, moves with the arrow keys and adds to the manager', async () => {
    installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    const preview = (id: number) => ({
      previewUrl: `/previews/${id}/thumb.jpg`,
      previewLargeUrl: `/previews/${id}/large.jpg`,
      previewWidth: 320,
      previewHeight: 452,
    });
    render(
      <DownloadsPage
        {...props({
          page: {
            content: [
              download(1, [
                file(11, 1, 'Flyer.pdf', preview(11)),
                file(12, 1, 'Video.mp4'),
                file(13, 1, 'Plakat.png', preview(13)),
              ]),
            ],
            count: 1,
          },
        })}
      />,
    );
    // A file without a preview keeps its type icon.
    expect(document.querySelector('.ap-thumb-icon .bi-file-earmark-play')).not.toBeNull();
    const thumb = screen.getByRole('link', { name: 'Vorschau von Flyer.pdf öffnen' });
    expect(thumb.getAttribute('href')).toBe('/previews/11/large.jpg');
    expect(thumb.querySelector('img')?.getAttribute('width')).toBe('320');
    fireEvent.click(thumb);
    const dialog = await screen.findByTestId('preview-dialog');
    // The dialog is loaded lazily: its commit can be seen before its effects (the arrow keys'
    // listener) have run on a busy machine; an empty act lets them run, as a browser would.
    await act(async () => {});
    expect(within(dialog).getByRole('heading', { name: 'Flyer.pdf' })).toBeTruthy();
    expect(within(dialog).getByTestId('preview-image').getAttribute('src')).toBe('/previews/11/large.jpg');
    expect(within(dialog).getByTestId('preview-position').textContent).toContain('Datei 1 von 3');
    fireEvent.keyDown(document, { key: 'ArrowRight' });
    expect(within(dialog).getByTestId('preview-position').textContent).toContain('Datei 2 von 3');
    expect(within(dialog).getByText('Für diese Datei gibt es keine Vorschau.')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'ArrowLeft' });
    fireEvent.keyDown(document, { key: 'ArrowLeft' });
    expect(within(dialog).getByRole('heading', { name: 'Plakat.png' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: /Herunterladen/ }).getAttribute('href')).toBe('/files/13/Plakat.png');
    fireEvent.click(within(dialog).getByTestId('preview-select'));
    expect(within(dialog).getByTestId('preview-select').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByTestId('selected-count')[0]!.textContent).toBe('1');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('preview-dialog')).toBeNull();
  });

  it('marks what is new since the last visit and filters by it with the chip', async () => {
    const { requests } = installFetch(() =>
      jsonResponse(200, { content: [], count: 0, newSinceVisit: { since: '2026-11-10T00:00:00Z', count: 0 } }),
    );
    render(
      <DownloadsPage
        {...props({
          page: {
            content: [
              download(1, [file(11, 1, 'Flyer.pdf', { newSinceVisit: true }), file(12, 1, 'Alt.pdf')], {
                newSinceVisit: true,
              }),
            ],
            count: 1,
            newSinceVisit: { since: '2026-11-10T00:00:00Z', count: 1 },
          },
        })}
      />,
    );
    const row = screen.getByTestId('download-row');
    // The package and the one new file carry the mark; the spec's NEU badge is another.
    expect(within(row).getAllByText('Neu seit Ihrem letzten Besuch')).toHaveLength(2);
    const chip = screen.getByTestId('new-since-chip');
    expect(chip.textContent).toContain('Neu seit Ihrem letzten Besuch');
    expect(chip.textContent).toContain('1');
    expect(chip.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(chip);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.url.searchParams.get('newSinceVisit')).toBe('true');
    expect(screen.getByTestId('new-since-chip').getAttribute('aria-pressed')).toBe('true');
    expect(window.location.search).toContain('newSinceVisit=true');
  });

  it('shows no chip on a first visit', () => {
    installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    render(<DownloadsPage {...props()} />);
    expect(screen.queryByTestId('new-since-chip')).toBeNull();
  });
});
