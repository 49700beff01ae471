import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import type { MockRequest } from '../../../test/fetchMock';
import AdminTags from './AdminTags';

vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const rules = { iconChoices: ['file-earmark-pdf', 'star', 'image'], maxImageBytes: 16 * 1024, nameMin: 2, nameMax: 40 };

const tag = (id: number, name: string, icon: string, uses: number) => ({
  id,
  name,
  icon,
  uses,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
});

function setup(answer: (request: MockRequest) => Response | null = () => null) {
  let tags = [tag(1, 'Flyer', 'bi bi-file-earmark-pdf', 3), tag(2, 'Plakat', 'bi bi-image', 0)];
  const mock = installFetch((request) => {
    const special = answer(request);
    if (special) return special;
    if (request.method === 'GET' && request.path === '/api/tags') return jsonResponse(200, tags);
    if (request.method === 'POST' && request.path === '/api/tags') {
      const body = request.json as { name: string; icon: string };
      const created = tag(3, body.name, body.icon, 0);
      tags = [...tags, created];
      return jsonResponse(201, created);
    }
    const one = /^\/api\/tags\/(\d+)$/.exec(request.path);
    if (one && request.method === 'DELETE') {
      tags = tags.filter((t) => t.id !== Number(one[1]));
      return jsonResponse(200, { message: 'Erfolgreich entfernt', id: Number(one[1]) });
    }
    return jsonResponse(500, { message: 'unerwartet', code: 'internal' });
  });
  render(<AdminTags {...rules} />);
  return mock;
}

const rowNames = () => screen.getAllByTestId('tag-row').map((row) => row.getAttribute('data-name'));
const toasts = () => getToasts().map(({ type, message }) => ({ type, message }));

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('AdminTags', () => {
  it('lists the tags with icon and uses', async () => {
    setup();
    await waitFor(() => expect(rowNames()).toEqual(['Flyer', 'Plakat']));
    const flyer = within(screen.getAllByTestId('tag-row')[0] as HTMLElement);
    expect(flyer.getAllByRole('cell')[2]?.textContent).toBe('3');
    expect(document.querySelector('[data-name="Flyer"] .bi-file-earmark-pdf')).not.toBeNull();
  });

  it('creates a tag with a picked icon, after checking the name on the spot', async () => {
    const { requests } = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('new-tag'));
    const modal = within(await screen.findByTestId('tag-form-modal'));
    expect(document.activeElement).toBe(modal.getByLabelText('Name'));
    fireEvent.change(modal.getByLabelText('Name'), { target: { value: 'S' } });
    fireEvent.click(modal.getByTestId('tag-save'));
    expect((await modal.findByRole('alert')).textContent).toBe('Der Name des Tags muss mindestens 2 Zeichen lang sein.');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.change(modal.getByLabelText('Name'), { target: { value: ' Social Media ' } });
    fireEvent.click(modal.getByLabelText('star'));
    fireEvent.click(modal.getByTestId('tag-save'));
    await waitFor(() => expect(screen.queryByTestId('tag-form-modal')).toBeNull());
    expect(requests.find((r) => r.method === 'POST')?.json).toEqual({ name: 'Social Media', icon: 'bi bi-star' });
    expect(toasts()).toContainEqual({ type: 'success', message: 'Der Tag „Social Media“ wurde angelegt.' });
    await waitFor(() => expect(rowNames()).toEqual(['Flyer', 'Plakat', 'Social Media']));
  });

  it('shows the server’s word on a name that is taken and keeps the form', async () => {
    setup((request) =>
      request.method === 'POST'
        ? jsonResponse(409, { message: 'Einen Tag „Flyer“ gibt es bereits.', code: 'tag_exists' })
        : null,
    );
    await waitFor(() => expect(rowNames()).toHaveLength(2));
    fireEvent.click(screen.getByTestId('new-tag'));
    const modal = within(await screen.findByTestId('tag-form-modal'));
    fireEvent.change(modal.getByLabelText('Name'), { target: { value: 'FLYER' } });
    fireEvent.click(modal.getByTestId('tag-save'));
    expect((await modal.findByRole('alert')).textContent).toBe('Einen Tag „Flyer“ gibt es bereits.');
    expect(screen.getByTestId('tag-form-modal')).toBeTruthy();
  });

  it('asks before deleting a tag files carry, naming how many', async () => {
    const { requests } = setup();
    await waitFor(() => expect(rowNames()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Flyer löschen' }));
    const confirm = within(await screen.findByTestId('confirm-tag-delete'));
    expect(confirm.getByText('Der Tag „Flyer“ ist an 3 Dateien vergeben. Er wird dort entfernt. Löschen?')).toBeTruthy();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(confirm.getByTestId('confirm-tag-delete-button'));
    await waitFor(() => expect(rowNames()).toEqual(['Plakat']));
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/tags/1']);
    expect(toasts()).toContainEqual({ type: 'success', message: 'Der Tag „Flyer“ wurde gelöscht.' });
  });
});
