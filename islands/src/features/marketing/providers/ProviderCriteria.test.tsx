import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { navigateTo } from '../../../lib/navigate';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler, MockRequest } from '../../../test/fetchMock';
import type { ProviderList } from '../../../lib/providerLists';
import type { RawProvider } from './types';
import ProviderCriteria from './ProviderCriteria';
import type { ProviderCriteriaProps } from './ProviderCriteria';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

function list(id: number, overrides: Partial<ProviderList> = {}): ProviderList {
  return {
    id,
    brevoListId: 100 + id,
    name: `Kriterium ${id}`,
    active: true,
    totalSubscribers: 1200 + id,
    totalBlocked: 0,
    deactivatedAt: null,
    reactivatedAt: null,
    createdAt: '2025-03-01T08:00:00Z',
    updatedAt: '2025-03-05T14:07:00Z',
    ProviderId: 1,
    ...overrides,
  };
}

const provider: RawProvider = {
  id: 1,
  name: 'Marke',
  allowedRoles: '["GS-Aktionsportal-BU-Marke"]',
  brevoActiveFolderId: 5,
  brevoInactiveFolderId: 6,
  uploadId: null,
  Upload: null,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

const firstPage = [list(5), list(4, { active: false, totalBlocked: 3 }), list(3)];

function setup(handler: MockHandler, props: Partial<ProviderCriteriaProps> = {}) {
  const mock = installFetch(handler);
  render(<ProviderCriteria provider={provider} lists={{ content: firstPage, count: 3 }} isAdmin={false} {...props} />);
  return mock;
}

function rowIds(): number[] {
  return screen.getAllByTestId('criteria-row').map((row) => Number(row.getAttribute('data-list-id')));
}

function row(id: number): HTMLElement {
  const found = screen.getAllByTestId('criteria-row').find((r) => r.getAttribute('data-list-id') === String(id));
  if (!found) throw new Error(`no row ${id}`);
  return found;
}

function toasts() {
  return getToasts().map(({ type, message, detail }) => ({ type, message, detail }));
}

const unexpected = () => jsonResponse(500, { message: 'unerwartet', code: 'internal' });

function writes(requests: MockRequest[]) {
  return requests.filter((r) => r.method !== 'GET');
}

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('ProviderCriteria: display', () => {
  it('shows the first page from the props without fetching', () => {
    const { fetchMock } = setup(unexpected);

    expect(rowIds()).toEqual([5, 4, 3]);
    expect(fetchMock).not.toHaveBeenCalled();
    const inactive = row(4);
    expect(inactive.className).toContain('ap-row-inactive');
    expect(inactive.textContent).toContain('inaktiv');
    expect(inactive.textContent).toContain('1.204');
    expect(inactive.textContent).toContain('(3 blockiert)');
    expect(row(5).textContent).not.toContain('blockiert');
    expect(row(5).textContent).toContain('05.03.2025, 15:07');
    expect(within(row(5)).getByTestId('contacts-5').getAttribute('href')).toBe('/admin/contacts?liste=5');
    expect(screen.getByTestId('provider-brand').textContent).toBe('Marke');
  });

  it('shows the logo when the provider has one', () => {
    setup(unexpected, { provider: { ...provider, Upload: { id: 2, name: 'l.png', path: '/uploads/l.png' } } });

    const logo = screen.getByRole('img', { name: 'Marke' });
    expect(logo.getAttribute('src')).toBe('/uploads/l.png');
    expect(logo.getAttribute('height')).toBe('40');
  });

  it('says so when the provider does not exist', () => {
    setup(unexpected, { provider: null, lists: null });

    expect(screen.getByRole('alert').textContent).toBe('Anbieter existiert nicht!');
  });

  it('offers delete only while a list is inactive', () => {
    setup(unexpected);

    expect(screen.queryByTestId('delete-5')).toBeNull();
    expect(screen.queryByTestId('delete-3')).toBeNull();
    expect(screen.getByTestId('delete-4')).not.toBeNull();
    expect(screen.getByTestId('toggle-5')).not.toBeNull();
    expect(screen.getByTestId('rename-5')).not.toBeNull();
  });

  it('shows the settings button to admins only', () => {
    setup(unexpected);
    expect(screen.queryByTestId('settings-button')).toBeNull();
  });

  it('links admins to the provider history in the audit log', () => {
    setup(unexpected, { isAdmin: true });
    const history = screen.getByRole('link', { name: 'Verlauf' });
    expect(history.getAttribute('href')).toBe('/admin/audit?entity=provider&entityId=1');
    expect(history.className).toContain('btn');
    expect(history.querySelector('.bi-clock-history')).not.toBeNull();
    // With the other admin action, the settings.
    expect(history.parentElement).toBe(screen.getByTestId('settings-button').parentElement);
  });

  it('shows no history link to users who are not admins', () => {
    setup(unexpected);
    expect(screen.queryByRole('link', { name: 'Verlauf' })).toBeNull();
    expect(screen.queryByTestId('provider-history')).toBeNull();
  });
});

describe('ProviderCriteria: status', () => {
  it('leaves the row unchanged on change_folder_warning and warns', async () => {
    const { requests } = setup((request) => {
      if (request.method === 'PATCH') return jsonResponse(200, { code: 'change_folder_warning', message: 'Ordner fehlen' });
      return unexpected();
    });
    const before = row(5).outerHTML;

    fireEvent.click(screen.getByTestId('toggle-5'));

    await waitFor(() =>
      expect(toasts()).toEqual([
        { type: 'warning', message: 'Aktiver und inaktiver Marketing-Ordner müssen beim Anbieter hinterlegt sein!', detail: null },
      ]),
    );
    expect(writes(requests)).toEqual([expect.objectContaining({ method: 'PATCH', path: '/api/lists/status/5', json: { active: false } })]);
    expect(row(5).outerHTML).toBe(before);
    expect(row(5).getAttribute('data-active')).toBe('true');
    expect(screen.queryByTestId('delete-5')).toBeNull();
  });

  it('replaces the row in place when the status changed', async () => {
    setup((request) => {
      if (request.method === 'PATCH') {
        return jsonResponse(200, { code: 'status_changed', content: list(5, { active: false, updatedAt: '2025-04-01T10:00:00Z' }) });
      }
      return unexpected();
    });

    fireEvent.click(screen.getByTestId('toggle-5'));

    await waitFor(() => expect(row(5).getAttribute('data-active')).toBe('false'));
    expect(rowIds()).toEqual([5, 4, 3]);
    expect(row(5).textContent).toContain('inaktiv');
    expect(screen.getByTestId('delete-5')).not.toBeNull();
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich aktualisiert', detail: null }]);
  });

  it('reports a failed write with the answer message and code', async () => {
    setup(() => jsonResponse(409, { message: 'Konflikt', code: 'conflict' }));

    fireEvent.click(screen.getByTestId('toggle-5'));

    await waitFor(() =>
      expect(toasts()).toEqual([
        { type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!', detail: 'Konflikt (Code: conflict)' },
      ]),
    );
    expect(row(5).getAttribute('data-active')).toBe('true');
  });
});

describe('ProviderCriteria: create, rename, delete', () => {
  it('validates the name, creates and puts the new list at the front', async () => {
    const { requests } = setup((request) => {
      if (request.method === 'POST') return jsonResponse(200, list(9, { name: (request.json as { name: string }).name }));
      return unexpected();
    });
    expect(screen.getByTestId('load-more').textContent).toContain('3/3');

    fireEvent.click(screen.getByTestId('create-criterion'));
    const dialog = screen.getByRole('dialog', { name: 'Kriterium anlegen' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Kurz' } });
    fireEvent.submit(within(dialog).getByTestId('criterion-form'));
    expect(dialog.textContent).toContain('Der Name muss mindestens 5 Zeichen lang sein.');
    expect(writes(requests)).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Neukunden  ' } });
    fireEvent.submit(within(dialog).getByTestId('criterion-form'));

    await waitFor(() => expect(rowIds()).toEqual([9, 5, 4, 3]));
    expect(writes(requests)).toEqual([expect.objectContaining({ method: 'POST', path: '/api/providers/1/lists', json: { name: 'Neukunden' } })]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('load-more').textContent).toContain('4/4');
    expect(toasts()).toContainEqual({ type: 'success', message: 'Erfolgreich angelegt', detail: null });
  });

  it('renames in place (up to 100 characters)', async () => {
    const { requests } = setup((request) => {
      if (request.method === 'PATCH') return jsonResponse(200, list(3, { name: (request.json as { name: string }).name }));
      return unexpected();
    });

    fireEvent.click(screen.getByTestId('rename-3'));
    const dialog = screen.getByRole('dialog', { name: 'Kriterium umbenennen' });
    const field = within(dialog).getByLabelText<HTMLInputElement>('Name');
    expect(field.value).toBe('Kriterium 3');
    fireEvent.change(field, { target: { value: 'x'.repeat(101) } });
    fireEvent.submit(within(dialog).getByTestId('criterion-form'));
    expect(dialog.textContent).toContain('Der Name darf höchstens 100 Zeichen lang sein.');

    fireEvent.change(field, { target: { value: 'x'.repeat(60) } });
    fireEvent.submit(within(dialog).getByTestId('criterion-form'));

    await waitFor(() => expect(row(3).textContent).toContain('x'.repeat(60)));
    expect(rowIds()).toEqual([5, 4, 3]);
    expect(writes(requests)[0]).toMatchObject({ method: 'PATCH', path: '/api/lists/name/3' });
    expect(toasts()).toEqual([
      { type: 'error', message: 'Der Name darf höchstens 100 Zeichen lang sein.', detail: null },
      { type: 'success', message: 'Erfolgreich aktualisiert', detail: null },
    ]);
  });

  it('deletes an inactive list after confirmation and lowers the count', async () => {
    const { requests } = setup((request) => {
      if (request.method === 'DELETE') return jsonResponse(200, { message: 'gelöscht' });
      return unexpected();
    });

    fireEvent.click(screen.getByTestId('delete-4'));
    const dialog = screen.getByRole('dialog', { name: 'Kriterium löschen' });
    expect(dialog.textContent).toContain('Kriterium „Kriterium 4“ wirklich löschen?');
    fireEvent.click(within(dialog).getByTestId('confirm-delete-criterion'));

    await waitFor(() => expect(rowIds()).toEqual([5, 3]));
    expect(writes(requests)).toEqual([expect.objectContaining({ method: 'DELETE', path: '/api/lists/4' })]);
    expect(screen.getByTestId('load-more').textContent).toContain('2/2');
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich entfernt', detail: null }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('ProviderCriteria: loading', () => {
  function pagedServer(total: number) {
    const all = Array.from({ length: total }, (_, i) => list(total - i));
    return (request: MockRequest) => {
      if (request.method === 'GET' && request.path === '/api/providers/1/lists/') {
        const p = request.url.searchParams;
        const offset = Number(p.get('offset'));
        return jsonResponse(200, { content: all.slice(offset, offset + Number(p.get('limit'))), count: total });
      }
      return unexpected();
    };
  }

  it('loads more with the next offset and stops when all are loaded', async () => {
    const all = Array.from({ length: 25 }, (_, i) => list(25 - i));
    const { requests } = installFetch(pagedServer(25));
    render(<ProviderCriteria provider={provider} lists={{ content: all.slice(0, 20), count: 25 }} isAdmin={false} />);
    const more = screen.getByTestId<HTMLButtonElement>('load-more');
    expect(more.textContent).toContain('20/25');
    expect(more.disabled).toBe(false);

    fireEvent.click(more);

    await waitFor(() => expect(more.textContent).toContain('25/25'));
    expect(more.disabled).toBe(true);
    expect(rowIds()).toHaveLength(25);
    expect(requests[0]?.url.search).toBe('?limit=20&offset=20&sort=DESC&activeStatus=true&inactiveStatus=true&search=');
  });

  it('reloads from offset 0 on a status change; unchecking both means both', async () => {
    const { requests } = setup(pagedServer(3));
    const active = screen.getByLabelText<HTMLInputElement>('Aktiv');
    const inactive = screen.getByLabelText<HTMLInputElement>('Inaktiv');
    expect(active).toBe(screen.getByTestId('status-active'));
    expect(active.checked && inactive.checked).toBe(true);

    fireEvent.click(active);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.url.searchParams.get('activeStatus')).toBe('false');
    expect(requests[0]?.url.searchParams.get('inactiveStatus')).toBe('true');
    expect(requests[0]?.url.searchParams.get('offset')).toBe('0');

    fireEvent.click(inactive);
    expect(active.checked).toBe(true);
    expect(inactive.checked).toBe(true);
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]?.url.searchParams.get('activeStatus')).toBe('true');
    expect(requests[1]?.url.searchParams.get('inactiveStatus')).toBe('true');
  });

  it('toggles the id sort between DESC and ASC', async () => {
    const { requests } = setup(pagedServer(3));
    const header = screen.getByTestId('sort-id').closest('th') as HTMLElement;
    expect(header.getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(screen.getByTestId('sort-id'));

    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.url.searchParams.get('sort')).toBe('ASC');
    expect(header.getAttribute('aria-sort')).toBe('ascending');
  });

  it('debounces the search by 400 ms and reloads once', async () => {
    vi.useFakeTimers();
    try {
      const { requests } = setup(pagedServer(3));
      const search = screen.getByTestId('criteria-search');

      fireEvent.change(search, { target: { value: 'K' } });
      act(() => {
        vi.advanceTimersByTime(300);
      });
      fireEvent.change(search, { target: { value: 'Kriterium 3' } });
      act(() => {
        vi.advanceTimersByTime(399);
      });
      expect(requests).toHaveLength(0);
      await act(async () => {
        vi.advanceTimersByTime(1);
        await Promise.resolve();
      });

      expect(requests).toHaveLength(1);
      expect(requests[0]?.url.searchParams.get('search')).toBe('Kriterium 3');
      expect(requests[0]?.url.searchParams.get('offset')).toBe('0');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the generic message when a read fails', async () => {
    setup(unexpected);

    fireEvent.click(screen.getByTestId('sort-id'));

    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!', detail: null }]),
    );
    expect(rowIds()).toEqual([5, 4, 3]);
  });

  it('"Alle übernehmen" replaces the data with the synced lists and keeps the filters', async () => {
    const { requests } = setup((request) => {
      if (request.method === 'GET' && request.path === '/api/sync/providers/1') {
        return jsonResponse(200, { content: [list(3, { totalSubscribers: 7 }), list(8, { active: false }), list(6)] });
      }
      if (request.path === '/api/providers/1/lists/') return jsonResponse(200, { content: [list(5), list(3)], count: 2 });
      return unexpected();
    });
    fireEvent.click(screen.getByTestId('status-inactive')); // only active ones
    await waitFor(() => expect(rowIds()).toEqual([5, 3]));

    fireEvent.click(screen.getByTestId('import-button'));
    fireEvent.click(within(screen.getByTestId('import-lists-modal')).getByRole('button', { name: 'Alle übernehmen' }));

    await waitFor(() => expect(rowIds()).toEqual([6, 3]));
    expect(screen.queryByTestId('import-lists-modal')).toBeNull();
    expect(requests.at(-1)?.path).toBe('/api/sync/providers/1');
    expect(screen.getByTestId<HTMLInputElement>('status-inactive').checked).toBe(false);
    expect(row(3).textContent).toContain('7');
    expect(screen.getByTestId('load-more').textContent).toContain('2/2');
  });
});

describe('ProviderCriteria: import from the marketing service', () => {
  it('takes over chosen lists of the folder and puts the criteria at the front', async () => {
    const { requests } = setup((request) => {
      if (request.path === '/api/providers/1/lists/') {
        return jsonResponse(200, { content: firstPage, count: 3 });
      }
      if (request.path === '/api/brevo/folder/5/lists/') {
        return jsonResponse(200, {
          lists: [
            { id: 103, name: 'Kriterium 3', totalSubscribers: 1203 },
            { id: 200, name: 'Neue Liste', totalSubscribers: 40 },
          ],
          count: 2,
        });
      }
      if (request.method === 'POST' && request.path === '/api/providers/1/lists') {
        return jsonResponse(200, list(9, { brevoListId: 200, name: 'Neue Liste', totalSubscribers: 40 }));
      }
      return unexpected();
    });

    fireEvent.click(screen.getByTestId('import-button'));
    const modal = within(screen.getByTestId('import-lists-modal'));
    const fresh = await modal.findByLabelText<HTMLInputElement>('Neue Liste');
    expect(modal.getByLabelText<HTMLInputElement>('Kriterium 3').disabled).toBe(true);
    fireEvent.click(fresh);
    fireEvent.click(modal.getByRole('button', { name: 'Ausgewählte übernehmen (1)' }));

    await waitFor(() => expect(rowIds()).toEqual([9, 5, 4, 3]));
    expect(writes(requests).map((r) => [r.method, r.path, r.json])).toEqual([
      ['POST', '/api/providers/1/lists', { brevoListId: 200, name: 'Neue Liste' }],
    ]);
    expect(screen.getByTestId('load-more').textContent).toContain('4/4');
    expect(screen.queryByTestId('import-lists-modal')).toBeNull();
    expect(toasts()).toEqual([{ type: 'success', message: '1 Kriterium übernommen.', detail: null }]);
  });
});

describe('ProviderCriteria: settings (admin)', () => {
  it('opens the provider form in edit mode and from there the delete modal', async () => {
    setup((request) => {
      if (request.path === '/api/brevo/folders/') return jsonResponse(200, { folders: [{ id: 5, name: 'Aktiv' }], count: 1 });
      if (request.method === 'PUT') return jsonResponse(200, { ...provider, name: 'Neuer Name' });
      return unexpected();
    }, { isAdmin: true });
    const saved = vi.fn();
    window.addEventListener('ap:provider-saved', saved);

    fireEvent.click(screen.getByTestId('settings-button'));
    const dialog = screen.getByRole('dialog', { name: 'Anbieter-Einstellungen' });
    expect(within(dialog).getByTestId<HTMLInputElement>('provider-name').value).toBe('Marke');
    expect(within(dialog).getAllByTestId('role-badge').map((b) => b.textContent)).toEqual(['GS-Aktionsportal-BU-Marke']);
    await within(dialog).findAllByRole('option', { name: '5 – Aktiv' });

    fireEvent.change(within(dialog).getByTestId('provider-name'), { target: { value: 'Neuer Name' } });
    fireEvent.submit(within(dialog).getByTestId('provider-form'));
    await waitFor(() => expect(screen.getByTestId('provider-brand').textContent).toBe('Neuer Name'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(saved).toHaveBeenCalledTimes(1);
    window.removeEventListener('ap:provider-saved', saved);

    fireEvent.click(screen.getByTestId('settings-button'));
    fireEvent.click(screen.getByTestId('delete-provider'));
    const confirm = screen.getByRole('dialog', { name: 'Anbieter löschen' });
    expect(confirm.textContent).toContain(
      'Anbieter „Neuer Name“ wirklich löschen? Alle Kriterien und Downloads des Anbieters werden entfernt.',
    );
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });
});
