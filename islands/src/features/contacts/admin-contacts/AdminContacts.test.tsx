import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler, MockRequest } from '../../../test/fetchMock';
import { contact, mailJob } from './fixtures';
import type { Contact } from './types';
import { POLL_INTERVAL_MS } from './useMailJob';
import AdminContacts from './AdminContacts';
import type { AdminContactsProps } from './AdminContacts';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const firstPage: Contact[] = [
  contact(3, { email: 'anna@example.de', customerNumber: 100002 }),
  contact(2, { email: 'sabine@example.de', doubleOptIn: false, doubleOptInAt: null }),
  contact(1, { email: 'juergen@example.de', emailBlacklisted: true }),
];

const unexpected = () => jsonResponse(500, { message: 'unerwartet', code: 'internal' });

const emptyQuery = {
  limit: null,
  offset: null,
  sort: null,
  sortBy: null,
  emailBlacklisted: null,
  doubleOptIn: null,
  search: null,
  status: null,
  liste: null,
  providerIds: null,
};

function setup(handler: MockHandler = unexpected, props: Partial<AdminContactsProps> = {}) {
  const mock = installFetch(handler);
  const view = render(
    <AdminContacts
      page={{ content: firstPage, count: firstPage.length }}
      query={emptyQuery}
      list={null}
      isAdmin={true}
      mayEditDetails={true}
      production={false}
      pendingCount={1}
      pendingTotal={2}
      job={null}
      marketingRetries={0}
      marketing="local"
      {...props}
    />,
  );
  return { ...mock, unmount: view.unmount };
}

function rowIds(): number[] {
  return screen.queryAllByTestId('contact-row').map((row) => Number(row.getAttribute('data-contact-id')));
}

function row(id: number) {
  const found = screen.getAllByTestId('contact-row').find((r) => r.getAttribute('data-contact-id') === String(id));
  if (!found) throw new Error(`no row ${id}`);
  return within(found);
}

function openMenu(id: number) {
  fireEvent.click(row(id).getByTestId('row-actions'));
  return within(row(id).getByTestId('row-menu'));
}

function menuLabels(id: number): string[] {
  openMenu(id);
  const labels = Array.from(row(id).getByTestId('row-menu').querySelectorAll('.dropdown-item')).map(
    (item) => item.textContent?.trim() ?? '',
  );
  fireEvent.click(row(id).getByTestId('row-actions'));
  return labels;
}

function toasts() {
  return getToasts().map(({ type, message, detail }) => ({ type, message, detail }));
}

function pages(requests: MockRequest[]) {
  return requests.filter((r) => r.method === 'GET' && r.path === '/api/contacts');
}

beforeEach(() => {
  window.history.replaceState(null, '', '/admin/contacts');
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('AdminContacts: the first page', () => {
  it('draws the embedded page without fetching', () => {
    const { requests } = setup();
    expect(requests).toEqual([]);
    expect(rowIds()).toEqual([3, 2, 1]);
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent?.trim());
    expect(headers).toEqual(['Kundennummer', 'E-Mail', 'Erstellt', 'Geändert', 'Aktionen']);
    const cells = row(3).getAllByRole('cell').map((c) => c.textContent?.trim());
    expect(cells.slice(0, 4)).toEqual(['100002', 'anna@example.de', '01.03.2025, 09:00', '05.03.2025, 15:07']);
    expect(screen.getByTestId('loaded-total').textContent).toBe('3/3');
    expect(screen.getByTestId<HTMLButtonElement>('load-more').disabled).toBe(true);
    expect(screen.getByTestId('sort-customerNumber').closest('th')?.getAttribute('aria-sort')).toBeNull();
  });

  it('marks blocked and pending contacts', () => {
    setup();
    expect(row(3).queryByTestId('badge-blocked')).toBeNull();
    expect(row(3).queryByTestId('badge-pending')).toBeNull();
    expect(row(2).getByTestId('badge-pending').textContent).toBe('DOI ausstehend');
    expect(row(1).getByTestId('badge-blocked').textContent).toBe('Gesperrt');
  });

  it('says "Kein Eintrag gefunden!" for an empty result', () => {
    setup(unexpected, { page: { content: [], count: 0 } });
    expect(screen.getByTestId('contacts-empty').textContent).toBe('Kein Eintrag gefunden!');
    expect(screen.getByTestId('loaded-total').textContent).toBe('0/0');
  });

  it('offers the row actions the contact and the user allow', () => {
    setup();
    expect(menuLabels(3)).toEqual(['Bearbeiten', 'Kriterien anzeigen', 'Verlauf', 'Sperren', 'Löschen']);
    expect(menuLabels(2)).toEqual([
      'Bearbeiten',
      'Kriterien anzeigen',
      'Verlauf',
      'Double-Opt-In senden',
      'Sperren',
      'Löschen',
    ]);
    // Blocked and confirmed: nothing to send.
    expect(menuLabels(1)).toEqual(['Bearbeiten', 'Kriterien anzeigen', 'Verlauf', 'Entsperren', 'Löschen']);
    expect(openMenu(3).getByRole('link', { name: 'Bearbeiten' }).getAttribute('href')).toBe(
      '/admin/contact/edit/100002',
    );
    expect(row(3).getByTestId('row-actions').getAttribute('aria-label')).toBe('Aktionen für anna@example.de');
  });

  it('hides "Double-Opt-In senden" only once confirmed, and disables it with a reason while blocked', async () => {
    const blockedPending = contact(4, { email: 'gesperrt@example.de', emailBlacklisted: true, doubleOptIn: false, doubleOptInAt: null });
    const content = [blockedPending, ...firstPage];
    const { requests } = setup(unexpected, { page: { content, count: content.length } });
    // Confirmed (anna; also juergen, blocked): hidden.
    expect(menuLabels(1)).not.toContain('Double-Opt-In senden');
    expect(openMenu(3).queryByRole('button', { name: 'Double-Opt-In senden' })).toBeNull();
    fireEvent.click(row(3).getByTestId('row-actions'));
    // Pending (sabine): enabled, without a reason.
    const pending = openMenu(2).getByRole('button', { name: 'Double-Opt-In senden' });
    expect(pending.getAttribute('aria-disabled')).toBeNull();
    expect(row(2).queryByTestId('double-opt-in-reason')).toBeNull();
    fireEvent.click(row(2).getByTestId('row-actions'));
    // Blocked and pending: shown, disabled, described by the visible reason; a click sends nothing.
    const blocked = openMenu(4).getByRole('button', {
      name: 'Double-Opt-In senden',
      description: 'Die E-Mail-Adresse ist gesperrt.',
    });
    expect(blocked.getAttribute('aria-disabled')).toBe('true');
    expect(row(4).getByTestId('double-opt-in-reason').textContent).toBe('Die E-Mail-Adresse ist gesperrt.');
    fireEvent.click(blocked);
    await Promise.resolve();
    expect(requests).toEqual([]);
    expect(row(4).getByTestId('row-menu')).not.toBeNull(); // the menu stays open
  });

  it('hides block and delete without the right to change details', () => {
    setup(unexpected, { mayEditDetails: false });
    expect(menuLabels(2)).toEqual(['Bearbeiten', 'Kriterien anzeigen', 'Verlauf', 'Double-Opt-In senden']);
  });

  it('links each contact to its history in the audit log for admins', () => {
    setup();
    for (const id of rowIds()) {
      const history = openMenu(id).getByRole('link', { name: 'Verlauf' });
      expect(history.tagName).toBe('A');
      expect(history.className).toBe('dropdown-item');
      expect(history.getAttribute('href')).toBe(`/admin/audit?entity=contact&entityId=${id}`);
      expect(history.querySelector('.bi-clock-history')).not.toBeNull();
      fireEvent.click(row(id).getByTestId('row-actions'));
    }
  });

  it('offers no history to users who are not admins', () => {
    setup(unexpected, { isAdmin: false });
    expect(menuLabels(2)).toEqual(['Bearbeiten', 'Kriterien anzeigen', 'Double-Opt-In senden', 'Sperren', 'Löschen']);
    expect(openMenu(3).queryByRole('link', { name: 'Verlauf' })).toBeNull();
    expect(screen.queryByTestId('action-history')).toBeNull();
  });

  it('reloads from the start when the address asked for a later page', async () => {
    const { requests } = setup(() => jsonResponse(200, { content: firstPage, count: 3 }), {
      query: { ...emptyQuery, offset: 40, limit: 20 },
    });
    await waitFor(() => expect(pages(requests)).toHaveLength(1));
    expect(pages(requests)[0]?.url.searchParams.get('offset')).toBe('0');
  });
});

describe('AdminContacts: search, filters, sorting and paging', () => {
  it('debounces the search by 300 ms and keeps it in the address bar', async () => {
    vi.useFakeTimers();
    const { requests } = setup(() => jsonResponse(200, { content: [firstPage[0]], count: 1 }));
    const search = screen.getByLabelText('Kontakte durchsuchen');

    fireEvent.change(search, { target: { value: 'we' } });
    act(() => {
      vi.advanceTimersByTime(200);
    });
    fireEvent.change(search, { target: { value: 'weber ' } });
    act(() => {
      vi.advanceTimersByTime(299);
    });
    expect(requests).toHaveLength(0);
    await act(async () => {
      vi.advanceTimersByTime(1);
      await Promise.resolve();
    });
    expect(pages(requests)).toHaveLength(1);
    const params = pages(requests)[0]?.url.searchParams;
    expect(params?.get('search')).toBe('weber');
    expect(params?.get('offset')).toBe('0');
    expect(params?.get('limit')).toBe('20');
    expect(params?.get('sortBy')).toBe('id');
    expect(params?.get('sort')).toBe('DESC');
    expect(window.location.search).toBe('?search=weber');
    vi.useRealTimers();
    await waitFor(() => expect(rowIds()).toEqual([3]));
    expect(screen.getByTestId('loaded-total').textContent).toBe('1/1');
  });

  it('sorts by a column, toggling the direction, and keeps it in the address bar', async () => {
    const { requests } = setup(() => jsonResponse(200, { content: firstPage, count: 3 }));
    const header = () => screen.getByTestId('sort-email').closest('th');

    fireEvent.click(screen.getByTestId('sort-email'));
    await waitFor(() => expect(pages(requests)).toHaveLength(1));
    expect(pages(requests)[0]?.url.searchParams.get('sortBy')).toBe('email');
    expect(pages(requests)[0]?.url.searchParams.get('sort')).toBe('ASC');
    expect(header()?.getAttribute('aria-sort')).toBe('ascending');
    expect(window.location.search).toBe('?sortBy=email&sort=ASC');

    fireEvent.click(screen.getByTestId('sort-email'));
    await waitFor(() => expect(pages(requests)).toHaveLength(2));
    expect(pages(requests)[1]?.url.searchParams.get('sort')).toBe('DESC');
    expect(header()?.getAttribute('aria-sort')).toBe('descending');
    expect(window.location.search).toBe('?sortBy=email');
  });

  it('filters by status, blocked and double opt-in, counts and resets the filters', async () => {
    const { requests } = setup(() => jsonResponse(200, { content: firstPage, count: 3 }));
    expect(screen.queryByTestId('filter-panel')).toBeNull();
    fireEvent.click(screen.getByTestId('filters-toggle'));
    expect(screen.getByTestId('filters-toggle').getAttribute('aria-expanded')).toBe('true');

    fireEvent.change(screen.getByLabelText('Gesperrt'), { target: { value: 'yes' } });
    await waitFor(() => expect(pages(requests)).toHaveLength(1));
    expect(pages(requests)[0]?.url.searchParams.get('emailBlacklisted')).toBe('true');

    fireEvent.change(screen.getByLabelText('Double-Opt-In'), { target: { value: 'pending' } });
    await waitFor(() => expect(pages(requests)).toHaveLength(2));
    expect(pages(requests)[1]?.url.searchParams.get('doubleOptIn')).toBe('false');

    // Only new ones, then neither: both again (spec §4).
    fireEvent.click(screen.getByLabelText('Aktiv (älter)'));
    await waitFor(() => expect(pages(requests)).toHaveLength(3));
    expect(pages(requests)[2]?.url.searchParams.get('status')).toBe('new');
    expect(screen.getByTestId('filter-count').textContent).toContain('3');
    expect(window.location.search).toBe('?status=new&emailBlacklisted=true&doubleOptIn=false');

    fireEvent.click(screen.getByLabelText('Neu (letzte 7 Tage)'));
    await waitFor(() => expect(pages(requests)).toHaveLength(4));
    expect(pages(requests)[3]?.url.searchParams.get('status')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Neu (letzte 7 Tage)').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Aktiv (älter)').checked).toBe(true);

    fireEvent.click(screen.getByTestId('filters-reset'));
    await waitFor(() => expect(pages(requests)).toHaveLength(5));
    const reset = pages(requests)[4]?.url.searchParams;
    expect(reset?.get('emailBlacklisted')).toBeNull();
    expect(reset?.get('doubleOptIn')).toBeNull();
    expect(screen.queryByTestId('filter-count')).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('opens with the filters of the address bar', () => {
    setup(unexpected, { query: { ...emptyQuery, emailBlacklisted: 'true', sortBy: 'createdAt', sort: 'ASC' } });
    expect(screen.getByTestId('filter-panel')).not.toBeNull();
    expect(screen.getByLabelText<HTMLSelectElement>('Gesperrt').value).toBe('yes');
    expect(screen.getByTestId('sort-createdAt').closest('th')?.getAttribute('aria-sort')).toBe('ascending');
  });

  it('loads 20 more from the current offset until all are loaded', async () => {
    const more = Array.from({ length: 2 }, (_, i) => contact(100 + i));
    const { requests } = setup(() => jsonResponse(200, { content: more, count: 5 }), {
      page: { content: firstPage, count: 5 },
    });
    expect(screen.getByTestId('loaded-total').textContent).toBe('3/5');

    fireEvent.click(screen.getByTestId('load-more'));
    await waitFor(() => expect(screen.getByTestId('loaded-total').textContent).toBe('5/5'));
    expect(pages(requests)[0]?.url.searchParams.get('offset')).toBe('3');
    expect(pages(requests)[0]?.url.searchParams.get('limit')).toBe('20');
    expect(screen.getByTestId<HTMLButtonElement>('load-more').disabled).toBe(true);
  });

  it('shows the generic message when a read fails', async () => {
    setup(unexpected);
    fireEvent.click(screen.getByTestId('sort-email'));
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!', detail: null }]),
    );
    expect(rowIds()).toEqual([3, 2, 1]);
  });
});

describe('AdminContacts: the list chip', () => {
  it('names the list and removes its filter', async () => {
    window.history.replaceState(null, '', '/admin/contacts?liste=7');
    const { requests } = setup(() => jsonResponse(200, { content: firstPage, count: 3 }), {
      query: { ...emptyQuery, liste: '7' },
      list: { id: 7, name: 'Glasfaser Privat', providerId: 2, providerName: 'Glasfaser Süd' },
    });
    expect(screen.getByTestId('list-chip').textContent).toBe('Kriterium: Glasfaser Privat (Glasfaser Süd)');

    fireEvent.click(screen.getByRole('button', { name: 'Kriterium-Filter entfernen' }));
    await waitFor(() => expect(pages(requests)).toHaveLength(1));
    expect(pages(requests)[0]?.url.searchParams.get('liste')).toBeNull();
    expect(screen.queryByTestId('list-chip')).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('keeps the list in every request while it is set', async () => {
    const { requests } = setup(() => jsonResponse(200, { content: firstPage, count: 3 }), {
      query: { ...emptyQuery, liste: '7' },
      list: null,
    });
    expect(screen.getByTestId('list-chip').textContent).toBe('Kriterium: Nr. 7');
    fireEvent.click(screen.getByTestId('sort-email'));
    await waitFor(() => expect(pages(requests)).toHaveLength(1));
    expect(pages(requests)[0]?.url.searchParams.get('liste')).toBe('7');
    expect(window.location.search).toBe('?liste=7&sortBy=email&sort=ASC');
  });
});

describe('AdminContacts: row actions', () => {
  it('blocks and unblocks in place with the spec toast', async () => {
    const { requests } = setup((request) =>
      jsonResponse(200, { ...firstPage[0], emailBlacklisted: request.path.endsWith('/3') }),
    );
    fireEvent.click(openMenu(3).getByRole('button', { name: 'Sperren' }));
    await waitFor(() => expect(row(3).queryByTestId('badge-blocked')).not.toBeNull());
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /api/contacts/email-blacklist/3']);
    expect(toasts()).toEqual([{ type: 'success', message: 'anna@example.de wurde erfolgreich aktualisiert.', detail: null }]);
    expect(rowIds()).toEqual([3, 2, 1]);
    // The focus went back to the menu's toggle.
    expect(document.activeElement).toBe(row(3).getByTestId('row-actions'));
  });

  it('shows the write error with message and code', async () => {
    setup(() => jsonResponse(404, { message: 'Kontakt nicht gefunden.', code: 'not_found' }));
    fireEvent.click(openMenu(3).getByRole('button', { name: 'Sperren' }));
    await waitFor(() =>
      expect(toasts()).toEqual([
        {
          type: 'error',
          message: 'Ein unerwarteter Fehler ist aufgetreten!',
          detail: 'Kontakt nicht gefunden. (Code: not_found)',
        },
      ]),
    );
  });

  it('deletes after confirmation, lowering the total by one', async () => {
    const { requests } = setup(() => jsonResponse(200, { message: 'Erfolgreich entfernt', id: 2 }), {
      page: { content: firstPage, count: 25 },
    });
    fireEvent.click(openMenu(2).getByRole('button', { name: 'Löschen' }));
    const modal = screen.getByTestId('delete-modal');
    expect(modal.textContent).toContain('Kontakt sabine@example.de wirklich löschen?');
    expect(document.activeElement?.textContent).toBe('Abbrechen');
    expect(requests).toEqual([]);

    fireEvent.click(within(modal).getByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('delete-modal')).toBeNull());
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /api/contacts/2']);
    expect(rowIds()).toEqual([3, 1]);
    expect(screen.getByTestId('loaded-total').textContent).toBe('2/24');
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich entfernt', detail: null }]);
  });

  it('closes the delete question with Escape without deleting', () => {
    const { requests } = setup();
    fireEvent.click(openMenu(2).getByRole('button', { name: 'Löschen' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('delete-modal')).toBeNull();
    expect(requests).toEqual([]);
    expect(rowIds()).toEqual([3, 2, 1]);
  });

  it('sends the double opt-in mail to a pending contact', async () => {
    const { requests } = setup(() =>
      jsonResponse(200, {
        status: 201,
        messageId: '<doi-1@example.de>',
        code: 'DOUBLE_OPT-IN_SENT',
        message: 'Double-Opt-In an sabine@example.de gesendet.',
      }),
    );
    fireEvent.click(openMenu(2).getByRole('button', { name: 'Double-Opt-In senden' }));
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'success', message: 'Double-Opt-In an sabine@example.de gesendet.', detail: null }]),
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/smtp/email/sabine%40example.de']);
    // Still pending until the contact confirms.
    expect(menuLabels(2)).toContain('Double-Opt-In senden');
  });

  it('tells when the contact has confirmed already and stops offering the mail', async () => {
    setup(() =>
      jsonResponse(200, {
        status: 200,
        messageId: null,
        code: 'DOUBLE_OPT-IN_ALREADY_DONE',
        message: 'sabine@example.de hat die E-Mail-Adresse bereits bestätigt.',
      }),
    );
    fireEvent.click(openMenu(2).getByRole('button', { name: 'Double-Opt-In senden' }));
    await waitFor(() =>
      expect(toasts()).toEqual([
        { type: 'info', message: 'sabine@example.de hat die E-Mail-Adresse bereits bestätigt.', detail: null },
      ]),
    );
    expect(row(2).queryByTestId('badge-pending')).toBeNull();
    expect(menuLabels(2)).not.toContain('Double-Opt-In senden');
  });

  it('shows a failed mail as an error with message and code', async () => {
    setup(() => jsonResponse(502, { message: 'Der Mailserver antwortet nicht.', code: 'upstream' }));
    fireEvent.click(openMenu(2).getByRole('button', { name: 'Double-Opt-In senden' }));
    await waitFor(() =>
      expect(toasts()).toEqual([
        {
          type: 'error',
          message: 'Ein unerwarteter Fehler ist aufgetreten!',
          detail: 'Der Mailserver antwortet nicht. (Code: upstream)',
        },
      ]),
    );
  });

  it('opens the criteria side panel of the contact', async () => {
    const { requests } = setup(() => jsonResponse(200, { count: 0, content: [] }));
    fireEvent.click(openMenu(3).getByRole('button', { name: 'Kriterien anzeigen' }));
    expect(screen.getByTestId('criteria-panel').textContent).toContain('Kriterien: anna@example.de');
    await screen.findByTestId('criteria-empty');
    expect(requests.map((r) => r.path)).toEqual(['/api/contacts/3/lists']);
  });

  it('moves through the menu with the arrow keys', () => {
    setup();
    const toggle = row(3).getByTestId('row-actions');
    toggle.focus();
    fireEvent.click(toggle);
    const menu = row(3).getByTestId('row-menu');
    fireEvent.keyDown(toggle, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Bearbeiten');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Kriterien anzeigen');
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Löschen');
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Bearbeiten');
    expect(menu.isConnected).toBe(true);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(row(3).queryByTestId('row-menu')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });
});

describe('AdminContacts: the More menu', () => {
  function openMore() {
    fireEvent.click(screen.getByTestId('more-menu-toggle'));
    return within(screen.getByTestId('more-menu'));
  }

  it('lists the sync manager for admins only', () => {
    setup();
    expect(openMore().getAllByRole('button').map((b) => b.textContent?.trim())).toEqual([
      'Double-Opt-In an alle ausstehenden Kontakte senden',
      'Sync-Manager',
      'Import aus der Planung',
      'Import aus Brevo',
    ]);
    clearToasts();
  });

  it('has no sync manager and no Brevo import for moderators', () => {
    setup(unexpected, { isAdmin: false });
    expect(openMore().getAllByRole('button').map((b) => b.textContent?.trim())).toEqual([
      'Double-Opt-In an alle ausstehenden Kontakte senden',
      'Import aus der Planung',
    ]);
  });

  it('opens the sync manager from "Sync-Manager" and from "Import aus Brevo"', () => {
    setup();
    fireEvent.click(openMore().getByRole('button', { name: 'Sync-Manager' }));
    const modal = screen.getByTestId('sync-manager-modal');
    expect(within(modal).getByRole('log').textContent).toContain('Bereit.');
    fireEvent.click(within(modal).getAllByRole('button', { name: 'Schließen' }).at(-1) as HTMLElement);
    expect(screen.queryByTestId('sync-manager-modal')).toBeNull();

    fireEvent.click(openMore().getByRole('button', { name: 'Import aus Brevo' }));
    expect(within(screen.getByTestId('sync-manager-modal')).getByRole('button', { name: 'Synchronisierung starten' })).toBeTruthy();
  });

  it('reloads the table after a finished sync', async () => {
    const { requests } = setup((request) => {
      if (request.path === '/api/syncContactsFromBrevo') {
        return new Response('{"result":"start","message":"Los"}\n{"result":"done","message":"Fertig."}\n', {
          status: 200,
          headers: { 'Content-Type': 'application/x-ndjson' },
        });
      }
      if (request.path === '/api/contacts') return jsonResponse(200, { content: [contact(9), ...firstPage], count: 4 });
      return unexpected();
    });
    fireEvent.click(openMore().getByRole('button', { name: 'Sync-Manager' }));
    fireEvent.click(screen.getByRole('button', { name: 'Synchronisierung starten' }));

    await waitFor(() => expect(rowIds()).toEqual([9, 3, 2, 1]));
    expect(pages(requests)[0]?.url.searchParams.get('offset')).toBe('0');
    expect(screen.getByRole('log').textContent).toContain('Fertig.');
  });

  it('opens the planning import, also for moderators', async () => {
    const { requests } = setup(() => jsonResponse(200, { service: false, csvCandidates: 4 }), { isAdmin: false });
    fireEvent.click(openMore().getByRole('button', { name: 'Import aus der Planung' }));
    const modal = screen.getByTestId('planning-import-modal');
    expect((await within(modal).findByTestId('planning-csv-candidates')).textContent).toBe('Kandidaten aus CSV-Dateien: 4');
    expect(requests.map((r) => r.path)).toEqual(['/api/planning/status']);
  });

  it('asks first, then shows the production-only warning', async () => {
    const { requests } = setup(() =>
      jsonResponse(200, {
        code: 'function_only_in_production_available',
        count: 1,
        total: 2,
        message: 'Diese Funktion ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!',
        job: null,
      }),
    );
    fireEvent.click(openMore().getByRole('button', { name: 'Double-Opt-In an alle ausstehenden Kontakte senden' }));
    const modal = screen.getByTestId('send-all-modal');
    expect(modal.textContent).toContain('geht an 1 von 2 Kontakten');
    expect(requests).toEqual([]);

    fireEvent.click(within(modal).getByTestId('confirm-send-all'));
    await waitFor(() =>
      expect(toasts()).toEqual([
        {
          type: 'warning',
          message: 'Diese Funktion ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!',
          detail: null,
        },
      ]),
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/smtp/emails']);
    expect(screen.queryByTestId('send-all-modal')).toBeNull();
    expect(screen.queryByTestId('mail-job-progress')).toBeNull();
  });

  it('starts the job, shows its progress every 2 s until done and stops polling', async () => {
    vi.useFakeTimers();
    let polls = 0;
    const { requests } = setup(
      (request) => {
        if (request.method === 'POST') {
          return jsonResponse(200, {
            code: 'job_started',
            count: 10,
            total: 12,
            message: 'Double-Opt-In wird an 10/12 Kontakte gesendet.',
            job: mailJob(),
          });
        }
        polls += 1;
        return jsonResponse(200, {
          job:
            polls === 1
              ? mailJob({ sent: 4, failed: 1, pending: 5 })
              : mailJob({ status: 'done', sent: 9, failed: 1, pending: 0, finishedAt: '2025-03-05T14:01:00Z' }),
        });
      },
      { production: true },
    );
    fireEvent.click(openMore().getByRole('button', { name: 'Double-Opt-In an alle ausstehenden Kontakte senden' }));
    await act(async () => {
      fireEvent.click(screen.getByTestId('confirm-send-all'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(toasts()).toEqual([{ type: 'success', message: 'Double-Opt-In wird an 10/12 Kontakte gesendet.', detail: null }]);
    expect(screen.getByTestId('mail-job-text').textContent).toBe('Double-Opt-In-Versand läuft: 0/10 gesendet');
    expect(screen.getByTestId<HTMLButtonElement>('more-menu-toggle')).not.toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    });
    expect(screen.getByTestId('mail-job-text').textContent).toBe(
      'Double-Opt-In-Versand läuft: 4/10 gesendet, 1 fehlgeschlagen',
    );
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    });
    expect(screen.getByTestId('mail-job-done').textContent).toContain(
      'Double-Opt-In-Versand abgeschlossen: 9/10 gesendet, 1 fehlgeschlagen.',
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    });
    expect(requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      '/api/smtp/emails',
      '/api/smtp/emails',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Hinweis schließen' }));
    expect(screen.queryByTestId('mail-job-done')).toBeNull();
  });

  it('reports a job already running and follows it', async () => {
    setup(
      () =>
        jsonResponse(200, {
          code: 'job_running',
          count: 10,
          total: 12,
          message: 'Der Versand läuft bereits: 3 von 10 gesendet.',
          job: mailJob({ sent: 3 }),
        }),
      { production: true },
    );
    fireEvent.click(openMore().getByRole('button', { name: 'Double-Opt-In an alle ausstehenden Kontakte senden' }));
    fireEvent.click(screen.getByTestId('confirm-send-all'));
    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'info', message: 'Der Versand läuft bereits: 3 von 10 gesendet.', detail: null }]),
    );
    expect(screen.getByTestId('mail-job-text').textContent).toBe('Double-Opt-In-Versand läuft: 3/10 gesendet');
  });

  it('follows a job that was running when the page loaded, and stops on unmount', async () => {
    vi.useFakeTimers();
    const { requests, unmount } = setup(() => jsonResponse(200, { job: mailJob({ sent: 6 }) }), {
      job: mailJob({ sent: 2 }),
    });
    expect(screen.getByTestId('mail-job-text').textContent).toBe('Double-Opt-In-Versand läuft: 2/10 gesendet');
    const moreToggle = screen.getByTestId('more-menu-toggle');
    fireEvent.click(moreToggle);
    expect(screen.getByTestId<HTMLButtonElement>('send-all-double-opt-in').disabled).toBe(true);
    fireEvent.click(moreToggle);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    });
    expect(screen.getByTestId('mail-job-text').textContent).toBe('Double-Opt-In-Versand läuft: 6/10 gesendet');
    expect(requests).toHaveLength(1);

    unmount();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    });
    expect(requests).toHaveLength(1);
  });

  it('shows nothing of a job that was done before the page loaded', () => {
    setup(unexpected, { job: mailJob({ status: 'done', sent: 10 }) });
    expect(screen.queryByTestId('mail-job-progress')).toBeNull();
    expect(screen.queryByTestId('mail-job-done')).toBeNull();
  });
});

describe('AdminContacts: marketing retries', () => {
  it('warns while changes wait for Brevo', () => {
    setup(unexpected, { marketingRetries: 3 });
    expect(screen.getByTestId('retries-alert').textContent).toContain(
      '3 Änderungen warten noch auf die Übertragung an Brevo.',
    );
  });

  it('shows no warning when nothing waits', () => {
    setup();
    expect(screen.queryByTestId('retries-alert')).toBeNull();
  });
});
