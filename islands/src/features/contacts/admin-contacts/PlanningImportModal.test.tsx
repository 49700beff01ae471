import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { navigateTo } from '../../../lib/navigate';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler } from '../../../test/fetchMock';
import { CUSTOMER_NUMBER_ERROR, PlanningImportModal, TOO_LARGE_MESSAGE } from './PlanningImportModal';
import type { CsvPreview } from './planning';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const GOOD_CSV =
  'Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n700001;Muster GmbH;Herr;Max;Muster;max@muster.de\n700001;Muster GmbH;Frau;Erika;Muster;erika@muster.de\n700002;Zweite KG;Firma;Zentrale;Einkauf;einkauf@zweite.de\n';

const goodPreview: CsvPreview = {
  candidates: [
    { line: 2, customerNumber: 700001, companyName: 'Muster GmbH', salutation: 2, firstname: 'Max', lastname: 'Muster', email: 'max@muster.de' },
    { line: 3, customerNumber: 700001, companyName: 'Muster GmbH', salutation: 3, firstname: 'Erika', lastname: 'Muster', email: 'erika@muster.de' },
    { line: 4, customerNumber: 700002, companyName: 'Zweite KG', salutation: 1, firstname: 'Zentrale', lastname: 'Einkauf', email: 'einkauf@zweite.de' },
  ],
  count: 3,
  companies: 2,
  errors: [],
  errorCount: 0,
};

const badPreview: CsvPreview = {
  candidates: [goodPreview.candidates[0]!],
  count: 1,
  companies: 1,
  errors: [
    { line: 3, message: 'E-Mail ist ungültig.' },
    { line: 4, message: 'Kundennummer fehlt.' },
  ],
  errorCount: 2,
};

function csvFile(text = GOOD_CSV, name = 'kontakte.csv'): File {
  return new File([text], name, { type: 'text/csv' });
}

function choose(file: File) {
  fireEvent.change(screen.getByLabelText('CSV-Datei'), { target: { files: [file] } });
}

function toasts() {
  return getToasts().map(({ type, message, detail }) => ({ type, message, detail }));
}

function setup(handler: MockHandler) {
  const mock = installFetch(async (request) => {
    if (request.path === '/api/planning/status') return jsonResponse(200, { service: true, csvCandidates: 12 });
    return handler(request);
  });
  render(<PlanningImportModal onClose={() => {}} />);
  return mock;
}

const importButton = () => screen.getByTestId<HTMLButtonElement>('csv-import');

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('PlanningImportModal', () => {
  it('shows whether a planning system is connected and how many CSV candidates wait', async () => {
    setup(() => jsonResponse(500, {}));
    await screen.findByTestId('planning-service');
    expect(screen.getByTestId('planning-service').getAttribute('data-connected')).toBe('true');
    expect(screen.getByTestId('planning-service').textContent).toMatch(/Planungssystem ist angebunden/);
    expect(screen.getByTestId('planning-csv-candidates').textContent).toBe('Kandidaten aus CSV-Dateien: 12');
    expect(screen.getByTestId('planning-import-modal').textContent).toContain(
      'Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail',
    );
    expect(screen.getByLabelText<HTMLInputElement>('CSV-Datei').accept).toBe('.csv,text/csv');
    expect(importButton().disabled).toBe(true);
  });

  it('says when no planning system is connected', async () => {
    installFetch(() => jsonResponse(200, { service: false, csvCandidates: 0 }));
    render(<PlanningImportModal onClose={() => {}} />);
    expect((await screen.findByTestId('planning-service')).textContent).toMatch(/Kein Planungssystem angebunden/);
  });

  it('opens the contact editor of a customer number', async () => {
    setup(() => jsonResponse(500, {}));
    const field = screen.getByLabelText('Kundennummer');
    expect(document.activeElement).toBe(field);
    await screen.findByTestId('planning-service');

    fireEvent.change(field, { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Im Kontakt-Editor öffnen' }));
    expect(screen.getByText(CUSTOMER_NUMBER_ERROR)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(navigateTo).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: ' 700001 ' } });
    fireEvent.submit(screen.getByTestId('planning-open-form'));
    expect(navigateTo).toHaveBeenCalledWith('/admin/contact/edit/700001');
  });

  it('previews a good file, then imports it', async () => {
    const file = csvFile();
    const { requests, fetchMock } = setup((request) => {
      if (request.path === '/api/planning/csv/preview') return jsonResponse(200, goodPreview);
      if (request.path === '/api/planning/csv/import') return jsonResponse(200, { imported: 3, companies: 2 });
      return jsonResponse(500, {});
    });
    choose(file);

    const table = await screen.findByTestId('csv-preview-table');
    const preview = requests.find((r) => r.path === '/api/planning/csv/preview');
    expect(preview?.method).toBe('POST');
    expect(preview?.body).toBe(file);
    const init = fetchMock.mock.calls.find(([url]) => typeof url === 'string' && url.includes('/csv/preview'))?.[1];
    expect(new Headers(init?.headers).get('Content-Type')).toBe('text/csv');
    expect(init?.credentials).toBe('same-origin');

    const rows = within(table).getAllByTestId('csv-preview-row');
    expect(rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent))).toEqual([
      ['2', '700001', 'Muster GmbH', 'Herr', 'Max', 'Muster', 'max@muster.de'],
      ['3', '700001', 'Muster GmbH', 'Frau', 'Erika', 'Muster', 'erika@muster.de'],
      ['4', '700002', 'Zweite KG', 'Firma', 'Zentrale', 'Einkauf', 'einkauf@zweite.de'],
    ]);
    expect(screen.getByTestId('csv-summary').textContent).toBe('Gültig: 3 Kontakte von 2 Firmen.');
    expect(screen.queryByTestId('csv-errors')).toBeNull();
    expect(importButton().disabled).toBe(false);

    fireEvent.click(importButton());
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'success', message: '3 Kontakte von 2 Firmen importiert.', detail: null }]),
    );
    const imported = requests.find((r) => r.path === '/api/planning/csv/import');
    expect(imported?.method).toBe('POST');
    expect(imported?.body).toBe(file);
    // The preview is gone, the status read again.
    await waitFor(() => expect(screen.queryByTestId('csv-preview')).toBeNull());
    expect(requests.filter((r) => r.path === '/api/planning/status')).toHaveLength(2);
    expect(importButton().disabled).toBe(true);
  });

  it('lists the errors per line and does not offer the import', async () => {
    setup((request) => {
      if (request.path === '/api/planning/csv/preview') return jsonResponse(200, badPreview);
      return jsonResponse(500, {});
    });
    choose(csvFile());

    const errors = await screen.findByTestId('csv-errors');
    expect(within(errors).getAllByTestId('csv-error').map((e) => e.textContent)).toEqual([
      'Zeile 3: E-Mail ist ungültig.',
      'Zeile 4: Kundennummer fehlt.',
    ]);
    expect(screen.getByTestId('csv-summary').textContent).toBe('Gültig: 1 Kontakt von 1 Firma, fehlerhaft: 2 Zeilen.');
    expect(importButton().disabled).toBe(true);
  });

  it('counts all errors when the server lists only the first ones', async () => {
    const errors = Array.from({ length: 200 }, (_, i) => ({ line: i + 2, message: 'E-Mail fehlt.' }));
    setup(() => jsonResponse(200, { candidates: [], count: 0, companies: 0, errors, errorCount: 250 }));
    choose(csvFile());
    const list = await screen.findByTestId('csv-errors');
    expect(within(list).getAllByTestId('csv-error')).toHaveLength(100);
    expect(list.textContent).toContain('250 Zeilen sind fehlerhaft');
    expect(list.textContent).toContain('… und 150 weitere.');
    expect(importButton().disabled).toBe(true);
  });

  it('does not offer the import of a file without valid lines', async () => {
    setup(() => jsonResponse(200, { candidates: [], count: 0, companies: 0, errors: [] }));
    choose(csvFile('Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail\n'));
    expect((await screen.findByTestId('csv-summary')).textContent).toBe('Die Datei enthält keine gültige Zeile.');
    expect(importButton().disabled).toBe(true);
  });

  it('shows the errors of an import the server refused (invalid_csv)', async () => {
    setup((request) => {
      if (request.path === '/api/planning/csv/preview') return jsonResponse(200, goodPreview);
      return jsonResponse(400, {
        code: 'invalid_csv',
        message: 'Die Datei enthält Fehler, nichts wurde importiert.',
        errors: [{ line: 2, message: 'E-Mail gehört zu Kundennummer 100001.' }],
      });
    });
    choose(csvFile());
    await screen.findByTestId('csv-preview-table');
    fireEvent.click(importButton());

    expect((await screen.findByTestId('csv-error')).textContent).toBe('Zeile 2: E-Mail gehört zu Kundennummer 100001.');
    expect(screen.getByTestId('csv-refused').textContent).toBe('Die Datei enthält Fehler, nichts wurde importiert.');
    expect(toasts()).toEqual([
      { type: 'error', message: 'Die Datei enthält Fehler, nichts wurde importiert.', detail: null },
    ]);
    expect(importButton().disabled).toBe(true);
  });

  it('refuses a file over 5 MiB without sending it', async () => {
    const { requests } = setup(() => jsonResponse(500, {}));
    const big = csvFile();
    Object.defineProperty(big, 'size', { value: 5 * 1024 * 1024 + 1 });
    choose(big);
    expect((await screen.findByTestId('csv-refused')).textContent).toBe(TOO_LARGE_MESSAGE);
    expect(requests.filter((r) => r.path !== '/api/planning/status')).toEqual([]);
  });

  it('shows the message of a preview the server refused', async () => {
    setup(() => jsonResponse(400, { code: 'invalid', message: 'Die Kopfzeile fehlt: Kundennummer, E-Mail.' }));
    choose(csvFile('a;b\n1;2\n'));
    expect((await screen.findByTestId('csv-refused')).textContent).toBe('Die Kopfzeile fehlt: Kundennummer, E-Mail.');
    expect(importButton().disabled).toBe(true);
  });
});
