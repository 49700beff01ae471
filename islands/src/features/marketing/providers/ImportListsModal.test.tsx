import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler } from '../../../test/fetchMock';
import { ALREADY_TAKEN, folderChoices, ImportListsModal, NO_FOLDERS_MESSAGE } from './ImportListsModal';
import type { ProviderList } from '../../../lib/providerLists';
import type { Provider } from './types';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const provider: Provider = {
  id: 7,
  name: 'Marke',
  allowedRoles: ['GS-Aktionsportal-BU-Marke'],
  brevoActiveFolderId: 101,
  brevoInactiveFolderId: 102,
  uploadId: null,
  Upload: null,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

function criterion(id: number, brevo: Partial<ProviderList> & { brevoId?: number | null } = {}): ProviderList {
  return {
    id,
    brevoListId: null,
    name: `Kriterium ${id}`,
    active: true,
    totalSubscribers: 0,
    totalBlocked: 0,
    deactivatedAt: null,
    reactivatedAt: null,
    createdAt: '2025-03-01T08:00:00Z',
    updatedAt: '2025-03-05T14:07:00Z',
    ProviderId: 7,
    ...brevo,
  };
}

/** Lists 1000 + n of folder 101 (60 of them) and 2000 + n of folder 102 (2). */
function folderPage(folderId: number, offset: number, limit: number) {
  const total = folderId === 101 ? 60 : 2;
  const base = folderId === 101 ? 1000 : 2000;
  const lists = [];
  for (let i = offset; i < Math.min(total, offset + limit); i += 1) {
    lists.push({ id: base + i, name: `Liste ${base + i}`, totalSubscribers: i * 1000 });
  }
  return { lists, count: total };
}

const taken = [criterion(1, { brevoListId: 1000 }), criterion(2, { brevoId: 2001 }), criterion(3)];

function standard(extra: MockHandler = () => jsonResponse(500, { message: 'unerwartet' })): MockHandler {
  return (request) => {
    if (request.method === 'GET' && request.path === '/api/providers/7/lists/') {
      return jsonResponse(200, { content: taken, count: taken.length });
    }
    const folder = /^\/api\/brevo\/folder\/(\d+)\/lists\/$/.exec(request.path);
    if (request.method === 'GET' && folder) {
      return jsonResponse(
        200,
        folderPage(Number(folder[1]), Number(request.url.searchParams.get('offset')), Number(request.url.searchParams.get('limit'))),
      );
    }
    return extra(request);
  };
}

function toasts() {
  return getToasts().map(({ type, message, detail }) => ({ type, message, detail }));
}

function rows() {
  return screen.queryAllByTestId('import-list-row');
}

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('folderChoices', () => {
  it('offers the folders that have an id', () => {
    expect(folderChoices(provider).map((c) => c.label)).toEqual(['Aktiver Ordner (ID 101)', 'Inaktiver Ordner (ID 102)']);
    expect(folderChoices({ brevoActiveFolderId: null, brevoInactiveFolderId: 102 }).map((c) => c.key)).toEqual(['inactive']);
    expect(folderChoices({ brevoActiveFolderId: null, brevoInactiveFolderId: null })).toEqual([]);
  });
});

describe('ImportListsModal', () => {
  it('lists the active folder by 50, ascending, and loads more', async () => {
    const { requests } = installFetch(standard());
    render(<ImportListsModal provider={provider} onImported={() => {}} onImportAll={() => {}} onClose={() => {}} />);

    await waitFor(() => expect(rows()).toHaveLength(50));
    const first = requests.find((r) => r.path === '/api/brevo/folder/101/lists/');
    expect(Object.fromEntries(first?.url.searchParams ?? [])).toEqual({ limit: '50', offset: '0', sort: 'ASC' });
    const criteria = requests.find((r) => r.path === '/api/providers/7/lists/');
    expect(criteria?.url.searchParams.get('limit')).toBe('1000');
    expect(criteria?.url.searchParams.get('activeStatus')).toBe('true');
    expect(criteria?.url.searchParams.get('inactiveStatus')).toBe('true');
    expect(screen.getByTestId('import-loaded-total').textContent).toBe('50/60');

    fireEvent.click(screen.getByTestId('import-load-more'));
    await waitFor(() => expect(rows()).toHaveLength(60));
    expect(requests.filter((r) => r.path === '/api/brevo/folder/101/lists/').map((r) => r.url.searchParams.get('offset'))).toEqual([
      '0',
      '50',
    ]);
    expect(screen.getByTestId('import-loaded-total').textContent).toBe('60/60');
    expect(screen.getByTestId<HTMLButtonElement>('import-load-more').disabled).toBe(true);
  });

  it('shows lists taken over already as checked, disabled and "bereits übernommen"', async () => {
    installFetch(standard());
    render(<ImportListsModal provider={provider} onImported={() => {}} onImportAll={() => {}} onClose={() => {}} />);
    const box = await screen.findByLabelText<HTMLInputElement>('Liste 1000');
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
    expect(box.closest('tr')?.textContent).toContain(ALREADY_TAKEN);
    const other = screen.getByLabelText<HTMLInputElement>('Liste 1001');
    expect(other.checked).toBe(false);
    expect(other.disabled).toBe(false);
    expect(other.closest('tr')?.textContent).not.toContain(ALREADY_TAKEN);

    // The inactive folder: its list 2001 is a criterion by its brevoId.
    fireEvent.change(screen.getByLabelText('Ordner'), { target: { value: 'inactive' } });
    await waitFor(() => expect(rows().map((r) => r.getAttribute('data-brevo-id'))).toEqual(['2000', '2001']));
    expect(rows().map((r) => r.getAttribute('data-taken'))).toEqual(['false', 'true']);
  });

  it('takes over the chosen lists one by one, then closes', async () => {
    const onImported = vi.fn();
    const onClose = vi.fn();
    const { requests } = installFetch(
      standard((request) => {
        if (request.method === 'POST' && request.path === '/api/providers/7/lists') {
          const body = request.json as { brevoListId: number; name: string };
          return jsonResponse(200, criterion(body.brevoListId - 900, { brevoListId: body.brevoListId, name: body.name }));
        }
        return jsonResponse(500, {});
      }),
    );
    render(<ImportListsModal provider={provider} onImported={onImported} onImportAll={() => {}} onClose={onClose} />);
    const submit = screen.getByTestId<HTMLButtonElement>('import-selected');
    expect(submit.disabled).toBe(true);

    fireEvent.click(await screen.findByLabelText('Liste 1001'));
    fireEvent.click(screen.getByLabelText('Liste 1003'));
    expect(submit.textContent).toBe('Ausgewählte übernehmen (2)');
    fireEvent.click(submit);

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.json)).toEqual([
      { brevoListId: 1001, name: 'Liste 1001' },
      { brevoListId: 1003, name: 'Liste 1003' },
    ]);
    expect(onImported.mock.calls.map(([list]) => (list as ProviderList).id)).toEqual([101, 103]);
    expect(toasts()).toEqual([{ type: 'success', message: '2 Kriterien übernommen.', detail: null }]);
  });

  it('stays open and names a list that could not be taken over', async () => {
    const onClose = vi.fn();
    installFetch(
      standard((request) => {
        const body = request.json as { brevoListId: number; name: string };
        if (body.brevoListId === 1001) {
          return jsonResponse(409, { code: 'list_exists', message: 'Diese Liste ist bereits als Kriterium angelegt.' });
        }
        return jsonResponse(200, criterion(50, { brevoListId: body.brevoListId, name: body.name }));
      }),
    );
    render(<ImportListsModal provider={provider} onImported={() => {}} onImportAll={() => {}} onClose={onClose} />);
    fireEvent.click(await screen.findByLabelText('Liste 1001'));
    fireEvent.click(screen.getByLabelText('Liste 1002'));
    fireEvent.click(screen.getByTestId('import-selected'));

    await waitFor(() => expect(toasts()).toHaveLength(2));
    expect(screen.getByLabelText<HTMLInputElement>('Liste 1002').disabled).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Liste 1002').closest('tr')?.textContent).toContain(ALREADY_TAKEN);
    expect(screen.getByLabelText<HTMLInputElement>('Liste 1001').checked).toBe(true); // still chosen
    expect(toasts()).toEqual([
      {
        type: 'error',
        message: '„Liste 1001“ konnte nicht übernommen werden.',
        detail: 'Diese Liste ist bereits als Kriterium angelegt. (Code: list_exists)',
      },
      { type: 'success', message: '1 Kriterium übernommen.', detail: null },
    ]);
  });

  it('warns once (spec §8 "Folders not set") when the provider lacks its folders', async () => {
    const onClose = vi.fn();
    const { requests } = installFetch(
      standard(() => jsonResponse(409, { code: 'change_folder_warning', message: 'Ordner fehlen' })),
    );
    render(<ImportListsModal provider={provider} onImported={() => {}} onImportAll={() => {}} onClose={onClose} />);
    fireEvent.click(await screen.findByLabelText('Liste 1001'));
    fireEvent.click(screen.getByLabelText('Liste 1002'));
    fireEvent.click(screen.getByTestId('import-selected'));

    await waitFor(() => expect(toasts()).toHaveLength(1));
    expect(toasts()).toEqual([
      { type: 'warning', message: 'Aktiver und inaktiver Marketing-Ordner müssen beim Anbieter hinterlegt sein!', detail: null },
    ]);
    // The second list is not tried: it would meet the same missing folders.
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows the message of a failed folder call (e.g. without Brevo)', async () => {
    installFetch((request) => {
      if (request.path === '/api/providers/7/lists/') return jsonResponse(200, { content: [], count: 0 });
      return jsonResponse(400, { code: 'marketing_not_connected', message: 'Kein Marketing-Dienst angebunden.' });
    });
    render(<ImportListsModal provider={provider} onImported={() => {}} onImportAll={() => {}} onClose={() => {}} />);
    expect((await screen.findByTestId('import-error')).textContent).toBe('Kein Marketing-Dienst angebunden.');
    expect(rows()).toEqual([]);
  });

  it('says so when the folder is empty', async () => {
    installFetch((request) => {
      if (request.path === '/api/providers/7/lists/') return jsonResponse(200, { content: [], count: 0 });
      return jsonResponse(200, { lists: [], count: 0 });
    });
    render(<ImportListsModal provider={provider} onImported={() => {}} onImportAll={() => {}} onClose={() => {}} />);
    expect((await screen.findByTestId('import-empty')).textContent).toBe('Dieser Ordner enthält keine Listen.');
  });

  it('needs folders; "Alle übernehmen" stays available', () => {
    const onImportAll = vi.fn();
    installFetch(() => jsonResponse(200, { content: [], count: 0 }));
    render(
      <ImportListsModal
        provider={{ ...provider, brevoActiveFolderId: null, brevoInactiveFolderId: null }}
        onImported={() => {}}
        onImportAll={onImportAll}
        onClose={() => {}}
      />,
    );
    const modal = within(screen.getByTestId('import-lists-modal'));
    expect(modal.getByTestId('import-no-folders').textContent).toBe(NO_FOLDERS_MESSAGE);
    expect(modal.queryByLabelText('Ordner')).toBeNull();
    fireEvent.click(modal.getByRole('button', { name: 'Alle übernehmen' }));
    expect(onImportAll).toHaveBeenCalledTimes(1);
  });
});
