import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { navigateTo } from '../../../lib/navigate';
import { clearToasts, getToasts, showPendingToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockHandler, MockRequest } from '../../../test/fetchMock';
import { ProviderFormModal } from './ProviderFormModal';
import type { ProviderFormModalProps } from './ProviderFormModal';
import type { Provider } from './types';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const folders = Array.from({ length: 52 }, (_, i) => ({ id: i + 1, name: `Ordner ${i + 1}` }));

function provider(overrides: Partial<Provider> = {}): Provider {
  return {
    id: 42,
    name: 'Neue Marke',
    allowedRoles: ['GS-Aktionsportal-BU-Neu'],
    brevoActiveFolderId: 7,
    brevoInactiveFolderId: 8,
    uploadId: null,
    Upload: null,
    createdAt: '2025-05-01T10:00:00Z',
    updatedAt: '2025-05-01T10:00:00Z',
    ...overrides,
  };
}

/** Folders in pages of 50; other requests go to `rest`. */
function server(rest: MockHandler = () => jsonResponse(500, { message: 'unerwartet', code: 'x' })): MockHandler {
  return (request) => {
    if (request.method === 'GET' && request.path === '/api/brevo/folders/') {
      const limit = Number(request.url.searchParams.get('limit'));
      const offset = Number(request.url.searchParams.get('offset'));
      return jsonResponse(200, { folders: folders.slice(offset, offset + limit), count: folders.length });
    }
    return rest(request);
  };
}

function toasts() {
  return getToasts().map(({ type, message }) => ({ type, message }));
}

async function renderModal(props: Partial<ProviderFormModalProps> = {}, handler: MockHandler = server()) {
  const mock = installFetch(handler);
  const onClose = vi.fn();
  render(<ProviderFormModal mode="create" onClose={onClose} {...props} />);
  // Folders arrive: the last page's folder is an option.
  await screen.findAllByRole('option', { name: '52 – Ordner 52' });
  return { ...mock, onClose };
}

function input(testId: string): HTMLInputElement {
  return screen.getByTestId<HTMLInputElement>(testId);
}

function typeInto(testId: string, value: string) {
  fireEvent.change(input(testId), { target: { value } });
}

function addRole(role: string) {
  typeInto('role-input', role);
  fireEvent.click(screen.getByTestId('role-add'));
}

function badges(): string[] {
  return screen.queryAllByTestId('role-badge').map((badge) => badge.textContent ?? '');
}

async function submit() {
  await act(async () => {
    fireEvent.submit(screen.getByTestId('provider-form'));
    await Promise.resolve();
  });
}

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('ProviderFormModal: fields', () => {
  it('is a labelled dialog that focuses the name field', async () => {
    await renderModal();

    expect(screen.getByRole('dialog', { name: 'Neuer Anbieter' })).not.toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(screen.getByLabelText('Gruppen (Rollen)')).toBe(input('role-input'));
    expect(screen.getByLabelText('Danach weiteren Anbieter anlegen')).toBe(input('create-another'));
  });

  it('loads all folder pages and defaults both selectors to "auto"', async () => {
    const { requests } = await renderModal();

    const folderCalls = requests.filter((r) => r.path === '/api/brevo/folders/');
    expect(folderCalls.map((r) => r.url.search)).toEqual(['?limit=50&offset=0', '?limit=50&offset=50']);
    const active = screen.getByLabelText<HTMLSelectElement>('Aktiver Marketing-Ordner');
    const inactive = screen.getByLabelText<HTMLSelectElement>('Inaktiver Marketing-Ordner');
    expect(active).toBe(screen.getByTestId('active-folder'));
    expect(active.value).toBe('auto');
    expect(inactive.value).toBe('auto');
    const labels = Array.from(active.options).map((o) => o.textContent);
    expect(labels.slice(0, 3)).toEqual(['Keiner', 'Automatisch anlegen', '1 – Ordner 1']);
    expect(labels).toHaveLength(54);
  });

  it('adds roles by button and by Enter, and removes them', async () => {
    await renderModal();

    addRole('GS-A');
    typeInto('role-input', '  GS-B ');
    fireEvent.keyDown(input('role-input'), { key: 'Enter' });

    expect(badges()).toEqual(['GS-A', 'GS-B']);
    expect(input('role-input').value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Gruppe GS-A entfernen' }));
    expect(badges()).toEqual(['GS-B']);
  });

  it('blocks an empty role and rejects a duplicate inline', async () => {
    await renderModal();
    const add = screen.getByTestId<HTMLButtonElement>('role-add');

    expect(add.disabled).toBe(true);
    typeInto('role-input', '   ');
    expect(add.disabled).toBe(true);
    fireEvent.keyDown(input('role-input'), { key: 'Enter' });
    expect(badges()).toEqual([]);

    addRole('GS-A');
    addRole('GS-A');

    expect(badges()).toEqual(['GS-A']);
    expect(screen.getByTestId('role-error').textContent).toBe('GS-A existiert bereits in der Liste!');
    expect(input('role-input').getAttribute('aria-invalid')).toBe('true');

    typeInto('role-input', 'GS-A2');
    expect(screen.queryByTestId('role-error')).toBeNull();
  });
});

describe('ProviderFormModal: validation', () => {
  it('shows every problem inline, the first also as a toast, and makes no call', async () => {
    const { requests } = await renderModal();
    fireEvent.change(screen.getByTestId('active-folder'), { target: { value: 'none' } });
    typeInto('provider-name', 'A');

    await submit();

    const form = screen.getByTestId('provider-form');
    expect(form.textContent).toContain('Der Name muss mindestens 2 Zeichen lang sein.');
    expect(form.textContent).toContain('Es muss mindestens eine Gruppe eingetragen werden!');
    expect(screen.getByTestId('folders-error').textContent).toBe(
      'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!',
    );
    // The first field error as an error toast; the missing folders as a warning (spec §8).
    expect(toasts()).toEqual([
      { type: 'error', message: 'Der Name muss mindestens 2 Zeichen lang sein.' },
      { type: 'warning', message: 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!' },
    ]);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(document.activeElement).toBe(screen.getByTestId('provider-name'));
  });

  it('warns (not errs) when only the folders are missing', async () => {
    const { requests } = await renderModal();
    typeInto('provider-name', 'Neue Marke');
    addRole('GS-A');
    fireEvent.change(screen.getByTestId('inactive-folder'), { target: { value: 'none' } });

    await submit();

    expect(toasts()).toEqual([{ type: 'warning', message: 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!' }]);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(document.activeElement).toBe(screen.getByTestId('active-folder'));
  });

  it('rejects names over 25 characters', async () => {
    await renderModal();
    typeInto('provider-name', 'x'.repeat(26));
    addRole('GS-A');

    await submit();

    expect(toasts()).toEqual([{ type: 'error', message: 'Der Name darf höchstens 25 Zeichen lang sein.' }]);
  });
});

describe('ProviderFormModal: create', () => {
  function createServer(onPost?: (request: MockRequest) => void) {
    let next = 42;
    return server((request) => {
      if (request.method === 'POST' && request.path === '/api/providers/') {
        onPost?.(request);
        const body = request.json as { name: string; allowedRoles: string[] };
        // The server answers allowedRoles as a JSON string sometimes.
        return jsonResponse(200, provider({ id: next++, name: body.name, allowedRoles: JSON.stringify(body.allowedRoles) as unknown as string[] }));
      }
      return jsonResponse(404, { message: 'nicht gefunden', code: 'not_found' });
    });
  }

  function fillValid(name = 'Neue Marke') {
    typeInto('provider-name', name);
    addRole('GS-Aktionsportal-BU-Neu');
    fireEvent.change(screen.getByTestId('inactive-folder'), { target: { value: '51' } });
  }

  it('creates, closes and goes to the new provider', async () => {
    const posted: unknown[] = [];
    const onCreated = vi.fn();
    const { onClose } = await renderModal({ onCreated }, createServer((r) => posted.push(r.json)));
    fillValid();

    await submit();

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/provider/42'));
    expect(posted).toEqual([
      {
        name: 'Neue Marke',
        allowedRoles: ['GS-Aktionsportal-BU-Neu'],
        brevoActiveFolderId: 'auto',
        brevoInactiveFolderId: 51,
        uploadId: null,
      },
    ]);
    // The page changes at once: the toast waits for the next page, which shows it.
    expect(toasts()).toEqual([]);
    showPendingToasts();
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich angelegt' }]);
    showPendingToasts();
    expect(toasts()).toHaveLength(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 42, allowedRoles: ['GS-Aktionsportal-BU-Neu'] }));
  });

  it('with "create another": stays open, resets the form and keeps the checkbox', async () => {
    const onCreated = vi.fn();
    const { onClose } = await renderModal({ onCreated }, createServer());
    fireEvent.click(screen.getByTestId('create-another'));
    fillValid();

    await submit();

    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich angelegt' }]);
    expect(navigateTo).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(input('provider-name').value).toBe('');
    expect(badges()).toEqual([]);
    expect(screen.getByTestId<HTMLSelectElement>('inactive-folder').value).toBe('auto');
    expect(input('create-another').checked).toBe(true);

    // The next one, then unticked: this time the modal closes and navigates.
    fillValid('Zweite Marke');
    fireEvent.click(screen.getByTestId('create-another'));
    await submit();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/provider/43'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows a 400 answer as an error toast and stays open', async () => {
    const { onClose } = await renderModal(
      {},
      server(() => jsonResponse(400, { message: 'Der Name ist bereits vergeben.', code: 'validation' })),
    );
    fillValid();

    await submit();

    await waitFor(() => expect(toasts()).toEqual([{ type: 'error', message: 'Der Name ist bereits vergeben.' }]));
    expect(onClose).not.toHaveBeenCalled();
    expect(navigateTo).not.toHaveBeenCalled();
    expect(screen.getByTestId<HTMLButtonElement>('provider-submit').disabled).toBe(false);
  });
});

describe('ProviderFormModal: folders missing on the server', () => {
  it.each([
    ['a 400 with the folders message', 400, { message: 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!', code: 'validation_error' }],
    ['the code change_folder_warning', 409, { message: 'Ordner fehlen', code: 'change_folder_warning' }],
  ])('shows %s as a warning toast', async (_label, status, body) => {
    const { onClose } = await renderModal({}, server(() => jsonResponse(status, body)));
    typeInto('provider-name', 'Neue Marke');
    addRole('GS-A');

    await submit();

    await waitFor(() =>
      expect(toasts()).toEqual([{ type: 'warning', message: 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!' }]),
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('ProviderFormModal: image', () => {
  it('rejects a file that is not an image without uploading', async () => {
    const { requests } = await renderModal();
    const file = new File(['%PDF'], 'preise.pdf', { type: 'application/pdf' });

    fireEvent.change(screen.getByTestId('logo-input'), { target: { files: [file] } });

    expect(input('logo-input').getAttribute('accept')).toBe('image/png,image/jpeg,image/gif,image/webp');
    expect(requests.some((r) => r.path === '/api/upload/')).toBe(false);
    expect(toasts()).toEqual([{ type: 'error', message: '„preise.pdf“ ist keine Bilddatei. Bitte ein Bild auswählen.' }]);
  });

  it('uploads an image at once, shows it in the preview and sends its id', async () => {
    const posted: unknown[] = [];
    const { requests } = await renderModal(
      {},
      server((request) => {
        if (request.path === '/api/upload/') return jsonResponse(200, { id: 9, name: 'logo.png', path: '/uploads/logo.png' });
        posted.push(request.json);
        return jsonResponse(200, provider());
      }),
    );
    const file = new File(['png'], 'logo.png', { type: 'image/png' });

    fireEvent.change(screen.getByTestId('logo-input'), { target: { files: [file] } });

    const logo = await screen.findByRole('img', { name: 'Anbieter' });
    expect(logo.getAttribute('src')).toBe('/uploads/logo.png');
    expect(logo.getAttribute('width')).toBe('100');
    const upload = requests.find((r) => r.path === '/api/upload/');
    expect(upload?.method).toBe('POST');
    expect((upload?.body as FormData).get('files[0]')).toBeInstanceOf(File);

    typeInto('provider-name', 'Marke');
    addRole('GS-A');
    await submit();
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ uploadId: 9 });
  });

  it('shows the preview row with the name while there is no logo', async () => {
    await renderModal();
    typeInto('provider-name', 'Marke X');

    const preview = screen.getByTestId('provider-preview');
    const headers = Array.from(preview.querySelectorAll('th')).map((th) => th.textContent);
    expect(headers).toEqual(['Anbieter', 'Name', 'Geändert am', 'Endet am', 'Downloads']);
    expect(preview.querySelector('tbody td')?.textContent).toBe('Marke X');
  });
});

describe('ProviderFormModal: edit', () => {
  it('starts from the provider, saves with PUT and hands the answer over', async () => {
    const onSaved = vi.fn();
    const onDelete = vi.fn();
    const sent: MockRequest[] = [];
    await renderModal(
      { mode: 'edit', provider: provider({ brevoInactiveFolderId: 999 }), onSaved, onDelete },
      server((request) => {
        sent.push(request);
        return jsonResponse(200, provider({ name: 'Umbenannt' }));
      }),
    );

    expect(screen.getByRole('dialog', { name: 'Anbieter-Einstellungen' })).not.toBeNull();
    expect(input('provider-name').value).toBe('Neue Marke');
    expect(badges()).toEqual(['GS-Aktionsportal-BU-Neu']);
    expect(screen.getByTestId<HTMLSelectElement>('active-folder').value).toBe('7');
    expect(screen.getByTestId<HTMLSelectElement>('inactive-folder').value).toBe('999');
    expect(screen.queryByTestId('create-another')).toBeNull();

    typeInto('provider-name', 'Umbenannt');
    await submit();

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ name: 'Umbenannt' })));
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.path).toBe('/api/providers/42');
    expect(sent[0]?.json).toMatchObject({ name: 'Umbenannt', brevoActiveFolderId: 7, brevoInactiveFolderId: 999 });
    expect(toasts()).toEqual([{ type: 'success', message: 'Erfolgreich aktualisiert' }]);

    fireEvent.click(screen.getByTestId('delete-provider'));
    expect(onDelete).toHaveBeenCalledTimes(1);
  });
});
