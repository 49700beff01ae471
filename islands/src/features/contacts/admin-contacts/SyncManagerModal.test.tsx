import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import { CAP_MESSAGE, READY_MESSAGE, SYNC_LOG_CAP } from './syncLog';
import { FROM_BREVO_LABEL, INTERRUPTED_MESSAGE, REQUESTED_MESSAGE, SyncManagerModal, TO_BREVO_LABEL } from './SyncManagerModal';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const encoder = new TextEncoder();

/** A response body the test feeds piece by piece. */
function controlledStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    body,
    send: (text: string) => controller?.enqueue(encoder.encode(text)),
    end: () => controller?.close(),
    get cancelled() {
      return cancelled;
    },
  };
}

function ndjson(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
}

function logMessages(): string[] {
  return screen.getAllByTestId('sync-log-entry').map((line) => (line.textContent ?? '').replace(/^\[\d\d:\d\d:\d\d\] /, ''));
}

function toasts() {
  return getToasts().map(({ type, message, detail }) => ({ type, message, detail }));
}

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('SyncManagerModal', () => {
  it('shows the warning, the direction (to Brevo disabled) and the ready message', () => {
    installFetch(() => jsonResponse(500, {}));
    render(<SyncManagerModal onClose={() => {}} />);

    const modal = screen.getByTestId('sync-manager-modal');
    expect(within(modal).getByRole('heading', { name: 'Sync-Manager' })).toBeTruthy();
    expect(screen.getByTestId('sync-warning').textContent).toMatch(/aus dem Marketing-Dienst \(Brevo\) ins Portal/);
    expect(screen.getByTestId('sync-warning').textContent).toMatch(/einige Zeit/);
    const from = screen.getByLabelText<HTMLInputElement>(FROM_BREVO_LABEL);
    const to = screen.getByLabelText<HTMLInputElement>(TO_BREVO_LABEL);
    expect(from.checked).toBe(true);
    expect(from.disabled).toBe(false);
    expect(to.checked).toBe(false);
    expect(to.disabled).toBe(true);
    const log = screen.getByRole('log');
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(logMessages()).toEqual([READY_MESSAGE]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Synchronisierung starten' }));
  });

  it('shows each streamed result as it arrives, also objects split between chunks', async () => {
    const stream = controlledStream();
    const onSynced = vi.fn();
    const { requests } = installFetch(() => ndjson(stream.body));
    render(<SyncManagerModal onClose={() => {}} onSynced={onSynced} />);

    fireEvent.click(screen.getByTestId('sync-start'));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.path).toBe('/api/syncContactsFromBrevo');
    expect(requests[0]?.method).toBe('GET');
    expect(screen.getByTestId<HTMLButtonElement>('sync-start').disabled).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('log'));

    act(() => stream.send('{"result":"start","message":"Abgleich beginnt.","modifiedSince":null}\n{"result":"pa'));
    await waitFor(() => expect(logMessages()).toEqual([READY_MESSAGE, REQUESTED_MESSAGE, 'Abgleich beginnt.']));

    act(() => stream.send('ge","message":"Seite 1: 3 neu","offset":0}{"result":"skipped","message":"x@y.de ohne Kundennummer","email":"x@y.de"}'));
    await waitFor(() => expect(logMessages().slice(3)).toEqual(['Seite 1: 3 neu', 'x@y.de ohne Kundennummer']));
    expect(screen.getAllByTestId('sync-log-entry').map((e) => e.getAttribute('data-result')).slice(2)).toEqual([
      'start',
      'page',
      'skipped',
    ]);
    expect(onSynced).not.toHaveBeenCalled();

    act(() => {
      stream.send('\n{"result":"done","message":"Fertig: 3 neu, 0 geändert."}\n');
      stream.end();
    });
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('sync-start').disabled).toBe(false));
    expect(logMessages().at(-1)).toBe('Fertig: 3 neu, 0 geändert.');
    expect(onSynced).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual([{ type: 'success', message: 'Fertig: 3 neu, 0 geändert.', detail: null }]);
  });

  it('"Leeren" brings back the ready message', async () => {
    installFetch(() => ndjson(new Response('{"result":"start","message":"Los"}\n{"result":"done","message":"Ende"}\n').body!));
    render(<SyncManagerModal onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('sync-start'));
    await waitFor(() => expect(logMessages().at(-1)).toBe('Ende'));

    fireEvent.click(screen.getByRole('button', { name: 'Leeren' }));
    expect(logMessages()).toEqual([READY_MESSAGE]);
  });

  it('empties the log when it exceeds 4000 entries', async () => {
    const lines = Array.from({ length: SYNC_LOG_CAP + 5 }, (_, i) => `{"result":"skipped","message":"Übersprungen ${i}"}`);
    installFetch(() => ndjson(new Response(`${lines.join('\n')}\n{"result":"done","message":"Ende"}\n`).body!));
    render(<SyncManagerModal onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('sync-start'));
    await waitFor(() => expect(logMessages().at(-1)).toBe('Ende'), { timeout: 5000 });

    const messages = logMessages();
    expect(messages.length).toBeLessThanOrEqual(SYNC_LOG_CAP);
    expect(messages[0]).toBe(CAP_MESSAGE);
    expect(messages).not.toContain(READY_MESSAGE);
    expect(messages).toContain(`Übersprungen ${SYNC_LOG_CAP + 4}`);
  });

  it('shows a 409 answer in the log and as a toast', async () => {
    installFetch(() => jsonResponse(409, { code: 'sync_running', message: 'Eine Synchronisierung läuft bereits.' }));
    render(<SyncManagerModal onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('sync-start'));

    await waitFor(() => expect(logMessages().at(-1)).toBe('Eine Synchronisierung läuft bereits.'));
    expect(screen.getAllByTestId('sync-log-entry').at(-1)?.getAttribute('data-result')).toBe('error');
    expect(toasts()).toEqual([{ type: 'warning', message: 'Eine Synchronisierung läuft bereits.', detail: null }]);
    expect(screen.getByTestId<HTMLButtonElement>('sync-start').disabled).toBe(false);
  });

  it('reports an error result and a stream that ends without one', async () => {
    const stream = controlledStream();
    installFetch(() => ndjson(stream.body));
    render(<SyncManagerModal onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('sync-start'));
    act(() => {
      stream.send('{"result":"start","message":"Los"}\n');
      stream.end();
    });
    await waitFor(() => expect(logMessages().at(-1)).toBe(INTERRUPTED_MESSAGE));

    vi.unstubAllGlobals();
    installFetch(() => ndjson(new Response('{"result":"error","message":"Brevo antwortet nicht."}\n').body!));
    fireEvent.click(screen.getByTestId('sync-start'));
    await waitFor(() => expect(logMessages().at(-1)).toBe('Brevo antwortet nicht.'));
    expect(toasts()).toEqual([{ type: 'error', message: 'Brevo antwortet nicht.', detail: null }]);
  });

  it('stops reading quietly when closed while running', async () => {
    const stream = controlledStream();
    installFetch(() => ndjson(stream.body));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const view = render(<SyncManagerModal onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('sync-start'));
    act(() => stream.send('{"result":"start","message":"Los"}\n'));
    await waitFor(() => expect(logMessages().at(-1)).toBe('Los'));

    view.unmount();
    await waitFor(() => expect(stream.cancelled).toBe(true));
    expect(errors).not.toHaveBeenCalled();
    expect(toasts()).toEqual([]);
  });

  it('starts only once while running', async () => {
    const stream = controlledStream();
    const { requests } = installFetch(() => ndjson(stream.body));
    render(<SyncManagerModal onClose={() => {}} />);
    const start = screen.getByTestId('sync-start');
    fireEvent.click(start);
    fireEvent.click(start);
    await waitFor(() => expect(requests).toHaveLength(1));
    act(() => stream.end());
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('sync-start').disabled).toBe(false));
    expect(requests).toHaveLength(1);
  });
});
