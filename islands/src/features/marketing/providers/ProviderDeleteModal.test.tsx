import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { navigateTo } from '../../../lib/navigate';
import { clearToasts, getToasts, showPendingToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockRequest } from '../../../test/fetchMock';
import { ProviderDeleteModal } from './ProviderDeleteModal';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

function setup(remaining: { id: number; name: string }[], deleteStatus = 200) {
  const mock = installFetch((request: MockRequest) => {
    if (request.method === 'DELETE') {
      return deleteStatus === 200
        ? jsonResponse(200, { message: 'gelöscht' })
        : jsonResponse(deleteStatus, { message: 'Verboten', code: 'forbidden' });
    }
    return jsonResponse(200, { content: remaining.map((p) => ({ ...p, allowedRoles: '[]' })), count: remaining.length });
  });
  const onClose = vi.fn();
  render(<ProviderDeleteModal provider={{ id: 3, name: 'Marke' }} onClose={onClose} />);
  return { ...mock, onClose };
}

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('ProviderDeleteModal', () => {
  it('asks, keeps the folders by default and goes to the first remaining provider', async () => {
    const { requests } = setup([{ id: 7, name: 'Andere' }]);

    expect(screen.getByRole('dialog', { name: 'Anbieter löschen' }).textContent).toContain(
      'Anbieter „Marke“ wirklich löschen? Alle Kriterien und Downloads des Anbieters werden entfernt.',
    );
    const folders = screen.getByLabelText<HTMLInputElement>('Marketing-Ordner ebenfalls löschen');
    expect(folders).toBe(screen.getByTestId('delete-folders'));
    expect(folders.checked).toBe(false);

    fireEvent.click(screen.getByTestId('confirm-delete-provider'));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/provider/7'));
    expect(requests.map((r) => `${r.method} ${r.path}${r.url.search}`)).toEqual([
      'DELETE /api/providers/3/?deleteBrevoFolders=false',
      'GET /api/providers/?limit=1&offset=0&search=',
    ]);
    expect(getToasts()).toEqual([]);
    showPendingToasts();
    expect(getToasts().map((t) => t.message)).toEqual(['Erfolgreich entfernt']);
  });

  it('deletes the folders when ticked and goes to the downloads when no provider is left', async () => {
    const { requests } = setup([]);

    fireEvent.click(screen.getByTestId('delete-folders'));
    fireEvent.click(screen.getByTestId('confirm-delete-provider'));

    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/admin/downloads'));
    expect(requests[0]?.url.search).toBe('?deleteBrevoFolders=true');
  });

  it('reports a failed delete and stays', async () => {
    const { onClose } = setup([], 403);

    fireEvent.click(screen.getByTestId('confirm-delete-provider'));

    await waitFor(() =>
      expect(getToasts().map((t) => [t.message, t.detail])).toEqual([
        ['Ein unerwarteter Fehler ist aufgetreten!', 'Verboten (Code: forbidden)'],
      ]),
    );
    expect(navigateTo).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId<HTMLButtonElement>('confirm-delete-provider').disabled).toBe(false);
  });
});
