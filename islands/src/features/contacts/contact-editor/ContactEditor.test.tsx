import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler, MockRequest } from '../../../test/fetchMock';
import { candidate, contact, group } from './fixtures';
import { CRITERIA_REQUIRED, DUPLICATE_EMAIL } from './messages';
import type { CustomerGroup } from './types';
import { EMAIL_CHECK_DELAY_MS } from './useEmailChecks';
import ContactEditor from './ContactEditor';
import type { ContactEditorProps } from './ContactEditor';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const providers = [
  { id: 1, name: 'Stadtwerke Nord', mayManage: true },
  { id: 2, name: 'Glasfaser Süd', mayManage: false },
];

const providerLists = {
  1: [
    { id: 11, name: 'Privatkunden Strom Nord', active: true },
    { id: 12, name: 'Gewerbekunden Wärme', active: true },
    { id: 13, name: 'Altkunden Rückgewinnung', active: false },
  ],
  2: [{ id: 21, name: 'Glasfaser Privatkunden', active: true }],
};

const thomas = contact(1, { email: 'thomas@example.de', firstname: 'Thomas', lastname: 'Müller', listsIds: [11] });
const sabine = contact(2, {
  email: 'sabine@example.de',
  salutation: 3,
  firstname: 'Sabine',
  lastname: 'Müller',
  doubleOptIn: false,
  listsIds: [11, 21],
});

const standardGroup = group([thomas, sabine], { contacts: [candidate()], message: null });

interface ServerOptions {
  /** What GET of the group answers. */
  group?: CustomerGroup | Response;
  /** What PUT answers (default: the group of the body). */
  put?: (request: MockRequest) => Response | Promise<Response>;
  /** Emails the server knows: email → customer number. */
  known?: Record<string, number>;
  /** What POST /api/contacts/{id}/erase answers. */
  erase?: (id: number) => Response;
}

function server({ group: loaded = standardGroup, put, known = {}, erase }: ServerOptions = {}): MockHandler {
  return (request) => {
    const path = request.path;
    const erasing = /^\/api\/contacts\/(\d+)\/erase$/.exec(path);
    if (request.method === 'POST' && erasing && erase) return erase(Number(erasing[1]));
    if (request.method === 'GET' && path === '/api/contacts/customer-number/100001') {
      return loaded instanceof Response ? loaded : jsonResponse(200, loaded);
    }
    if (request.method === 'PUT' && path === '/api/contacts/customer-number/100001') {
      if (put) return put(request);
      return jsonResponse(200, standardGroup);
    }
    const lists = /^\/api\/providers\/(\d+)\/lists\/$/.exec(path);
    if (request.method === 'GET' && lists) {
      const content = providerLists[Number(lists[1]) as 1 | 2];
      return jsonResponse(200, { content, count: content.length });
    }
    if (request.method === 'GET' && path.startsWith('/api/contacts/lists/')) {
      return jsonResponse(200, {
        content: [
          { id: 11, name: 'Privatkunden Strom Nord', active: true, providerName: 'Stadtwerke Nord', ProviderId: 1 },
          { id: 21, name: 'Glasfaser Privatkunden', active: true, providerName: 'Glasfaser Süd', ProviderId: 2 },
        ],
        count: 2,
      });
    }
    const email = /^\/api\/contacts\/email\/(.+)$/.exec(path);
    if (request.method === 'GET' && email) {
      const address = decodeURIComponent(email[1] ?? '');
      const number = known[address];
      return jsonResponse(200, number === undefined ? {} : { id: 99, email: address, customerNumber: number });
    }
    return jsonResponse(500, { message: `unerwartet: ${request.method} ${path}`, code: 'internal' });
  };
}

function setup(options: ServerOptions = {}, props: Partial<ContactEditorProps> = {}) {
  const mock = installFetch(server(options));
  render(
    <ContactEditor
      customerNumber="100001"
      permissions={{ editDetails: true, admin: true }}
      providers={providers}
      {...props}
    />,
  );
  return mock;
}

async function loaded() {
  await screen.findByText('Aktive Kontakte');
  await waitFor(() => expect(screen.getByTestId('contact-editor').getAttribute('data-loaded')).toBe('true'));
}

function toasts() {
  return getToasts().map(({ type, message }) => ({ type, message }));
}

function puts(requests: MockRequest[]) {
  return requests.filter((r) => r.method === 'PUT');
}

function newRows() {
  return screen.queryAllByTestId('new-contact');
}

function newRow(index: number) {
  const row = newRows()[index];
  if (!row) throw new Error(`no new row ${index}`);
  return within(row);
}

function activeRow(email: string) {
  const row = screen.getAllByTestId('active-contact').find((r) => r.getAttribute('data-email') === email);
  if (!row) throw new Error(`no active row ${email}`);
  return within(row);
}

function fillNewRow(index: number, values: { salutation?: string; firstname?: string; lastname?: string; email?: string }) {
  const row = newRow(index);
  if (values.salutation !== undefined) fireEvent.change(row.getByLabelText('Anrede'), { target: { value: values.salutation } });
  if (values.firstname !== undefined) fireEvent.change(row.getByLabelText('Vorname'), { target: { value: values.firstname } });
  if (values.lastname !== undefined) fireEvent.change(row.getByLabelText('Nachname'), { target: { value: values.lastname } });
  if (values.email !== undefined) fireEvent.change(row.getByLabelText('E-Mail'), { target: { value: values.email } });
}

async function submit() {
  await act(async () => {
    fireEvent.submit(screen.getByTestId('contact-editor'));
    await Promise.resolve();
  });
}

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ContactEditor: loading', () => {
  it('shows the placeholder until the group has arrived, then the customer number and company', async () => {
    const { requests } = setup();
    expect(screen.getByTestId('customer-number').textContent).toBe('9999999');
    expect(screen.getByTestId('company-name').textContent).toBe('NaN');
    expect(screen.getByTestId<HTMLButtonElement>('submit').disabled).toBe(true);

    await loaded();
    expect(screen.getByTestId('customer-number').textContent).toBe('100001');
    expect(screen.getByTestId('company-name').textContent).toBe('Müller & Söhne Vertriebs GmbH');
    expect(screen.getByTestId('submit').textContent).toBe('Aktualisieren');
    expect(requests[0]?.path).toBe('/api/contacts/customer-number/100001');
    expect(screen.getAllByTestId('active-contact').map((r) => r.getAttribute('data-email'))).toEqual([
      'thomas@example.de',
      'sabine@example.de',
    ]);
    expect(activeRow('sabine@example.de').getByTestId('badge-pending')).toBeTruthy();
    // Preselected: the union of the contacts' lists, named by the lists call.
    expect(screen.getByTestId('criteria-count').textContent).toBe('2');
    await waitFor(() => expect(screen.getByTestId('chosen-criteria').textContent).toContain('Glasfaser Privatkunden'));
    expect(requests.some((r) => decodeURIComponent(r.path) === '/api/contacts/lists/[1,2]')).toBe(true);
  });

  it('shows the server message for a customer number that is none', async () => {
    setup({ group: jsonResponse(400, { code: 'invalid', message: 'Die Kundennummer muss eine Zahl sein.' }) });
    expect((await screen.findByTestId('load-error')).textContent).toContain('Die Kundennummer muss eine Zahl sein.');
    expect(screen.getByTestId('customer-number').textContent).toBe('9999999');
    expect(screen.queryByText('Aktive Kontakte')).toBeNull();
  });

  it('lets the company be typed in for a new customer group ("Anlegen")', async () => {
    setup({ group: { content: [], imports: { company: null, contacts: [], message: null } } });
    await loaded();
    const company = screen.getByLabelText<HTMLInputElement>('Firma');
    expect(company.value).toBe('');
    expect(company.required).toBe(true);
    expect(screen.getByTestId('submit').textContent).toBe('Anlegen');
    expect(screen.getByTestId('active-empty')).toBeTruthy();
  });
});

describe('ContactEditor: sections', () => {
  it('moves an active contact to the ones to be removed and back, the focus following it', async () => {
    setup();
    await loaded();
    fireEvent.click(activeRow('thomas@example.de').getByRole('button', { name: 'thomas@example.de entfernen' }));
    const removed = within(screen.getByTestId('removed-section'));
    const restore = removed.getByRole('button', { name: 'thomas@example.de wiederherstellen' });
    expect(document.activeElement).toBe(restore);
    expect(screen.getAllByTestId('active-contact')).toHaveLength(1);

    fireEvent.click(restore);
    expect(screen.getAllByTestId('active-contact')).toHaveLength(2);
    expect(removed.queryAllByTestId('removed-contact')).toHaveLength(0);
  });

  it('blocks a contact at once, and says so', async () => {
    const { requests } = installFetch((request) =>
      request.method === 'PATCH' && request.path === '/api/contacts/email-blacklist/1'
        ? jsonResponse(200, { ...thomas, emailBlacklisted: true })
        : server()(request),
    );
    render(<ContactEditor customerNumber="100001" permissions={{ editDetails: true, admin: true }} providers={providers} />);
    await loaded();
    fireEvent.click(activeRow('thomas@example.de').getByRole('button', { name: 'thomas@example.de sperren' }));
    await waitFor(() => expect(activeRow('thomas@example.de').getByTestId('badge-blocked').textContent).toBe('Gesperrt'));
    expect(toasts()).toEqual([{ type: 'success', message: 'thomas@example.de wurde erfolgreich aktualisiert.' }]);
    expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(activeRow('thomas@example.de').getByRole('button', { name: 'thomas@example.de entsperren' })).toBeTruthy();
  });

  it('adds and removes new rows', async () => {
    setup();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    expect(newRows()).toHaveLength(2);
    expect(document.activeElement).toBe(newRow(1).getByLabelText('Anrede'));
    const options = Array.from(newRow(0).getByLabelText<HTMLSelectElement>('Anrede').options).map((o) => o.textContent);
    expect(options).toEqual(['Anrede wählen', 'keine', 'Firma', 'Herr', 'Frau', 'Diverses']);
    fireEvent.click(newRow(0).getByRole('button', { name: 'Neuen Kontakt 1 entfernen' }));
    expect(newRows()).toHaveLength(1);
  });

  it('shows the import note and turns a candidate into a new contact with one click', async () => {
    setup({
      group: group([thomas], {
        contacts: [candidate(), candidate({ firstname: 'Otto', email: 'otto@x.de', existingCustomerNumber: 456 })],
        message: 'Das Planungssystem hat nicht geantwortet.',
      }),
    });
    await loaded();
    expect(screen.getByTestId('imports-message').textContent).toContain('Das Planungssystem hat nicht geantwortet.');
    const candidates = within(screen.getByTestId('imports-section'));
    const otto = candidates.getByRole('button', { name: 'Otto Plan als neuen Kontakt übernehmen' });
    expect((otto as HTMLButtonElement).disabled).toBe(true);
    expect(candidates.getByTestId('candidate-elsewhere').textContent).toContain('456');

    fireEvent.click(candidates.getByRole('button', { name: 'Paul Plan als neuen Kontakt übernehmen' }));
    expect(newRows()).toHaveLength(1);
    expect(newRow(0).getByLabelText<HTMLInputElement>('E-Mail').value).toBe('paul.plan@planung.example');
    expect(newRow(0).getByTestId('badge-candidate')).toBeTruthy();
    expect(candidates.getAllByTestId('candidate')).toHaveLength(1);

    // Removing the new row gives the candidate back.
    fireEvent.click(newRow(0).getByTestId('discard-contact'));
    expect(candidates.getAllByTestId('candidate')).toHaveLength(2);
  });
});

describe('ContactEditor: validation', () => {
  it('refuses an email twice with a toast and at the field, and makes no call', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    fillNewRow(0, { salutation: '2', firstname: 'Tom', lastname: 'Doppelt', email: 'Thomas@example.de' });

    const field = newRow(0).getByLabelText('E-Mail');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = field.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(DUPLICATE_EMAIL);

    await submit();
    expect(toasts()).toEqual([{ type: 'error', message: DUPLICATE_EMAIL }]);
    expect(puts(requests)).toHaveLength(0);
    expect(screen.queryByTestId('confirm-create-modal')).toBeNull();
  });

  it('shows missing fields after a save attempt and focuses the first', async () => {
    setup();
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    expect(newRow(0).getByLabelText('Vorname').getAttribute('aria-invalid')).toBe('false');
    await submit();
    expect(toasts()).toEqual([{ type: 'error', message: 'Bitte wählen Sie eine Anrede (Anrede wählen).' }]);
    expect(newRow(0).getByLabelText('Vorname').getAttribute('aria-invalid')).toBe('true');
    expect(newRow(0).getByTestId('error-lastname').textContent).toBe('Bitte geben Sie einen Nachnamen an.');
    expect(document.activeElement).toBe(newRow(0).getByLabelText('Anrede'));
  });

  it('checks a new email at the server 1000 ms after typing and blocks saving when another customer has it', async () => {
    const { requests } = setup({ known: { 'anna@example.de': 100002 } });
    await loaded();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    fillNewRow(0, { salutation: '3', firstname: 'Anna', lastname: 'Neu', email: 'anna@exam' });
    fillNewRow(0, { email: 'anna@example.de' });

    const checks = () => requests.filter((r) => r.path.startsWith('/api/contacts/email/'));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(EMAIL_CHECK_DELAY_MS - 10);
    });
    expect(checks()).toHaveLength(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    // One check, for the email as it stands after the last keystroke.
    expect(checks().map((r) => r.path)).toEqual(['/api/contacts/email/anna%40example.de']);
    const message = 'Die E-Mail anna@example.de ist bereits unter der Kundennummer 100002 registriert.';
    expect(newRow(0).getByTestId('error-email').textContent).toBe(message);

    await submit();
    expect(toasts()).toEqual([{ type: 'error', message }]);
    expect(puts(requests)).toHaveLength(0);
  });

  it('checks an email right away when saving before the debounce ended', async () => {
    const { requests } = setup({ known: { 'anna@example.de': 100002 } });
    await loaded();
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    fillNewRow(0, { salutation: '3', firstname: 'Anna', lastname: 'Neu', email: 'anna@example.de' });
    await submit();
    await waitFor(() =>
      expect(toasts()).toEqual([
        { type: 'error', message: 'Die E-Mail anna@example.de ist bereits unter der Kundennummer 100002 registriert.' },
      ]),
    );
    expect(puts(requests)).toHaveLength(0);
  });

  it('needs a criterion for admins and moderators', async () => {
    const { requests } = setup({ group: group([contact(1, { listsIds: [] })]) });
    await loaded();
    await submit();
    expect(toasts()).toEqual([{ type: 'error', message: CRITERIA_REQUIRED }]);
    expect(screen.getByTestId('lists-error').textContent).toBe(CRITERIA_REQUIRED);
    expect(puts(requests)).toHaveLength(0);
  });
});

describe('ContactEditor: criteria picker', () => {
  it('shows every provider with its lists, archived ones disabled, and applies the choice', async () => {
    const { requests } = setup();
    await loaded();
    fireEvent.click(screen.getByTestId('open-criteria'));
    const picker = within(await screen.findByTestId('criteria-picker'));
    await picker.findByText('Glasfaser Privatkunden');

    const listCalls = requests.filter((r) => r.path.startsWith('/api/providers/'));
    expect(listCalls.map((r) => `${r.path}?${r.url.searchParams.toString()}`)).toEqual([
      '/api/providers/1/lists/?limit=1000&offset=0&sort=ASC&activeStatus=true&inactiveStatus=true&search=',
    ]);

    const archived = picker.getByLabelText<HTMLInputElement>(/Altkunden Rückgewinnung/);
    expect(archived.disabled).toBe(true);
    expect(picker.getByText('Altkunden Rückgewinnung').className).toContain('text-decoration-line-through');
    expect(picker.getByText('ARCHIVIERT').className).toContain('ap-badge-archived');
    // A provider the user does not manage (the server lists none of its lists): the group's, not changeable.
    const foreign = picker.getByLabelText<HTMLInputElement>('Glasfaser Privatkunden');
    expect(foreign.checked).toBe(true);
    expect(foreign.disabled).toBe(true);

    fireEvent.click(picker.getByLabelText('Privatkunden Strom Nord'));
    fireEvent.click(picker.getByLabelText('Gewerbekunden Wärme'));
    expect(picker.getByTestId('criteria-chosen-count').textContent).toBe('2 ausgewählt');
    // The admin's reset goes back to what the group had.
    fireEvent.click(picker.getByTestId('criteria-reset'));
    expect(picker.getByLabelText<HTMLInputElement>('Privatkunden Strom Nord').checked).toBe(true);
    fireEvent.click(picker.getByLabelText('Privatkunden Strom Nord'));
    fireEvent.click(picker.getByLabelText('Gewerbekunden Wärme'));
    fireEvent.click(picker.getByTestId('criteria-apply'));

    expect(screen.queryByTestId('criteria-picker')).toBeNull();
    expect(screen.getByTestId('criteria-count').textContent).toBe('2');
    expect(screen.getByTestId('chosen-criteria').textContent).toContain('Gewerbekunden Wärme');

    await submit();
    const body = puts(requests)[0]?.json as { listsIds: number[]; uncheckedListsIds: number[] };
    expect(body.listsIds).toEqual([12, 21]);
    expect(body.uncheckedListsIds).toEqual([11]);
  });

  it('offers the admin the data of each contact to save, and nobody else', async () => {
    setup({ group: group([contact(7, { email: 'erika@example.de' })]) });
    await loaded();
    const link = activeRow('erika@example.de').getByRole('link', { name: 'erika@example.de: Daten exportieren' });
    expect(link.getAttribute('href')).toBe('/api/contacts/7/export');
    expect(link.getAttribute('download')).toBe('Kontakt-7.json');
  });

  it('has no reset and no data export for moderators', async () => {
    setup({}, { permissions: { editDetails: true, admin: false } });
    await loaded();
    expect(screen.queryByTestId('export-contact')).toBeNull();
    expect(screen.queryByTestId('erase-contact')).toBeNull();
    fireEvent.click(screen.getByTestId('open-criteria'));
    const picker = within(await screen.findByTestId('criteria-picker'));
    await picker.findByText('Glasfaser Privatkunden');
    expect(picker.queryByTestId('criteria-reset')).toBeNull();
  });
});

describe('ContactEditor: erasure (DSGVO)', () => {
  const erased = (id: number) =>
    jsonResponse(200, {
      message: 'Der Kontakt wurde endgültig gelöscht.',
      id,
      marketingService: true,
      outboxFiles: 0,
      lists: 2,
      tokens: 0,
      mails: 0,
      marketingRetries: 0,
      planningCandidates: 0,
      customerGroup: false,
      auditEntries: 3,
    });

  it('names what goes, asks, erases and drops the row', async () => {
    const { requests } = setup({ erase: erased });
    await loaded();
    fireEvent.click(
      activeRow('sabine@example.de').getByRole('button', { name: 'sabine@example.de: Endgültig löschen (DSGVO)' }),
    );
    const modal = within(await screen.findByTestId('confirm-erase-modal'));
    expect(modal.getByText('sabine@example.de').textContent).toBe('sabine@example.de');
    const named = modal.getAllByRole('listitem').map((item) => item.textContent);
    expect(named).toContain('den Kontakt in Brevo, wenn Brevo angebunden ist');
    expect(named).toContain('seine Double-Opt-In-Links und den Nachweis seiner Einwilligung');
    expect(document.activeElement).toBe(modal.getByRole('button', { name: 'Abbrechen' }));
    expect(requests.some((r) => r.path.endsWith('/erase'))).toBe(false);

    fireEvent.click(modal.getByTestId('confirm-erase'));
    await waitFor(() => expect(screen.queryByTestId('confirm-erase-modal')).toBeNull());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/contacts/2/erase']);
    expect(toasts()).toContainEqual({ type: 'success', message: 'Der Kontakt wurde endgültig gelöscht.' });
    const emails = screen.getAllByTestId('active-contact').map((row) => row.getAttribute('data-email'));
    expect(emails).toEqual(['thomas@example.de']);
  });

  it('keeps the contact when Brevo fails and says why', async () => {
    setup({
      erase: () => jsonResponse(502, { message: 'Brevo ist nicht erreichbar. Es wurde nichts gelöscht.', code: 'marketing' }),
    });
    await loaded();
    fireEvent.click(activeRow('sabine@example.de').getByTestId('erase-contact'));
    fireEvent.click(within(await screen.findByTestId('confirm-erase-modal')).getByTestId('confirm-erase'));
    await waitFor(() =>
      expect(toasts().map((t) => t.message).join(' ')).toContain('Brevo ist nicht erreichbar'),
    );
    expect(screen.getAllByTestId('active-contact')).toHaveLength(2);
  });
});

describe('ContactEditor: saving', () => {
  it('asks before creating and deleting, sends the customer group and shows the answer', async () => {
    const saved = group([thomas, contact(5, { email: 'erika@example.de', listsIds: [11, 21] })], { contacts: [] });
    const { requests } = setup({ put: () => jsonResponse(200, saved) });
    await loaded();

    fireEvent.click(activeRow('sabine@example.de').getByTestId('remove-contact'));
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    fillNewRow(0, { salutation: '3', firstname: 'Erika', lastname: 'Muster', email: 'erika@example.de' });
    fireEvent.click(screen.getByRole('button', { name: 'Paul Plan als neuen Kontakt übernehmen' }));

    await submit();
    const create = within(await screen.findByTestId('confirm-create-modal'));
    expect(create.getByText('2 neue Kontakte anlegen?')).toBeTruthy();
    expect(document.activeElement).toBe(create.getByRole('button', { name: 'Abbrechen' }));
    fireEvent.click(create.getByTestId('confirm-create'));

    const remove = within(await screen.findByTestId('confirm-delete-modal'));
    expect(remove.getByText('1 Kontakt löschen?')).toBeTruthy();
    expect(puts(requests)).toHaveLength(0);
    await act(async () => {
      fireEvent.click(remove.getByTestId('confirm-delete'));
      await Promise.resolve();
    });

    await waitFor(() => expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich aktualisiert' }]));
    expect(puts(requests)[0]?.json).toEqual({
      customerNumber: 100001,
      companyName: 'Müller & Söhne Vertriebs GmbH',
      listsIds: [11, 21],
      uncheckedListsIds: [],
      contacts: [
        { id: 2, remove: true },
        { email: 'erika@example.de', salutation: 3, firstname: 'Erika', lastname: 'Muster' },
      ],
      alphaPlanContacts: [{ email: 'paul.plan@planung.example', salutation: 2, firstname: 'Paul', lastname: 'Plan' }],
    });
    expect(screen.queryByTestId('confirm-delete-modal')).toBeNull();
    expect(screen.getAllByTestId('active-contact').map((r) => r.getAttribute('data-email'))).toEqual([
      'thomas@example.de',
      'erika@example.de',
    ]);
    expect(newRows()).toHaveLength(0);
    expect(screen.queryAllByTestId('removed-contact')).toHaveLength(0);
  });

  it('saves a change without asking, disables the button meanwhile and keeps the form on a server error', async () => {
    let answer: (response: Response) => void = () => {};
    const { requests } = setup({
      put: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    await loaded();
    fireEvent.change(activeRow('thomas@example.de').getByLabelText('Nachname'), { target: { value: 'Meier' } });
    await submit();
    expect(screen.queryByTestId('confirm-create-modal')).toBeNull();
    expect(screen.getByTestId<HTMLButtonElement>('submit').disabled).toBe(true);

    await act(async () => {
      answer(jsonResponse(502, { code: 'marketing_failed', message: 'Brevo hat abgelehnt; nichts wurde geändert.' }));
      await Promise.resolve();
    });
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'error', message: 'Brevo hat abgelehnt; nichts wurde geändert.' }]),
    );
    expect(screen.getByTestId<HTMLButtonElement>('submit').disabled).toBe(false);
    expect(activeRow('thomas@example.de').getByLabelText<HTMLInputElement>('Nachname').value).toBe('Meier');
    expect(puts(requests)[0]?.json).toMatchObject({
      contacts: [{ id: 1, email: 'thomas@example.de', salutation: 2, firstname: 'Thomas', lastname: 'Meier' }],
    });
  });

  it('creates a new group with the typed company ("Erfolgreich angelegt")', async () => {
    const created = group([contact(7, { companyName: 'Neu GmbH', email: 'neu@example.de' })]);
    const { requests } = setup({
      group: { content: [], imports: { company: null, contacts: [], message: null } },
      put: () => jsonResponse(200, created),
    });
    await loaded();
    fireEvent.change(screen.getByLabelText('Firma'), { target: { value: 'Neu GmbH' } });
    fireEvent.click(screen.getByRole('button', { name: 'Kontakt hinzufügen' }));
    fillNewRow(0, { salutation: '1', firstname: 'Zentrale', lastname: 'Neu', email: 'neu@example.de' });
    fireEvent.click(screen.getByTestId('open-criteria'));
    const picker = within(await screen.findByTestId('criteria-picker'));
    fireEvent.click(await picker.findByLabelText('Privatkunden Strom Nord'));
    await waitFor(() => expect(picker.getByTestId<HTMLButtonElement>('criteria-apply').disabled).toBe(false));
    fireEvent.click(picker.getByTestId('criteria-apply'));

    await submit();
    fireEvent.click(within(await screen.findByTestId('confirm-create-modal')).getByTestId('confirm-create'));
    await waitFor(() => expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich angelegt' }]));
    expect(puts(requests)[0]?.json).toMatchObject({ companyName: 'Neu GmbH', listsIds: [11] });
    expect(screen.getByTestId('company-name').textContent).toBe('Neu GmbH');
    expect(screen.getByTestId('submit').textContent).toBe('Aktualisieren');
  });
});

describe('ContactEditor: BU-DOI', () => {
  it('may not change names, remove, block or choose criteria, but may take candidates and save without one', async () => {
    const { requests } = setup(
      { group: group([contact(1, { listsIds: [] })], { contacts: [candidate()] }) },
      { permissions: { editDetails: false, admin: false }, providers: [] },
    );
    await loaded();
    const row = activeRow('kontakt1@example.de');
    expect(row.getByLabelText<HTMLInputElement>('Vorname').readOnly).toBe(true);
    expect(row.getByLabelText<HTMLInputElement>('Nachname').readOnly).toBe(true);
    expect(row.getByLabelText<HTMLInputElement>('Anrede').value).toBe('Herr');
    expect(row.getByLabelText<HTMLInputElement>('E-Mail').readOnly).toBe(false);
    expect(row.queryByTestId('remove-contact')).toBeNull();
    expect(row.queryByTestId('toggle-block')).toBeNull();
    expect(screen.getByTestId<HTMLButtonElement>('open-criteria').disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Paul Plan als neuen Kontakt übernehmen' }));
    await submit();
    fireEvent.click(within(await screen.findByTestId('confirm-create-modal')).getByTestId('confirm-create'));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]?.json).toMatchObject({ listsIds: [], uncheckedListsIds: [], contacts: [] });
  });
});
