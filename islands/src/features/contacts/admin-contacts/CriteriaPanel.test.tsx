import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { clearToasts, getToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import { contact, contactList } from './fixtures';
import { CriteriaPanel, groupByProvider } from './CriteriaPanel';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('groupByProvider', () => {
  it('groups by provider, both sorted by name', () => {
    const groups = groupByProvider([
      contactList(1, { name: 'Zeta', ProviderId: 2, providerName: 'Glasfaser Süd' }),
      contactList(2, { name: 'Beta', ProviderId: 1, providerName: 'Stadtwerke Nord' }),
      contactList(3, { name: 'Äpfel', ProviderId: 2, providerName: 'Glasfaser Süd' }),
      contactList(4, { name: 'Alpha', ProviderId: 1, providerName: 'Stadtwerke Nord' }),
    ]);
    expect(groups.map((g) => [g.providerName, g.lists.map((l) => l.name)])).toEqual([
      ['Glasfaser Süd', ['Äpfel', 'Zeta']],
      ['Stadtwerke Nord', ['Alpha', 'Beta']],
    ]);
    expect(groupByProvider([])).toEqual([]);
  });
});

describe('CriteriaPanel', () => {
  it('loads the lists of the contact and shows them per provider, inactive ones archived', async () => {
    const { requests } = installFetch(() =>
      jsonResponse(200, {
        count: 3,
        content: [
          contactList(1, { name: 'Glasfaser Privat', ProviderId: 2, providerName: 'Glasfaser Süd' }),
          contactList(2, { name: 'Strom Bestand', active: false }),
          contactList(3, { name: 'Strom Neu' }),
        ],
      }),
    );
    const onClose = vi.fn();
    render(<CriteriaPanel contact={contact(5, { email: 'anna@example.de' })} onClose={onClose} />);

    const panel = screen.getByTestId('criteria-panel');
    expect(within(panel).getByRole('heading', { level: 2 }).textContent).toBe('Kriterien: anna@example.de');
    expect(panel.querySelector('.ap-side-panel')).not.toBeNull();
    expect(within(panel).getByText('Kriterien werden geladen …')).not.toBeNull();

    const groups = await screen.findAllByTestId('criteria-group');
    expect(requests.map((r) => r.path)).toEqual(['/api/contacts/5/lists']);
    expect(groups.map((g) => g.querySelector('h3')?.textContent)).toEqual(['Glasfaser Süd', 'Stadtwerke Nord']);
    const archived = within(groups[1] as HTMLElement).getByText('Strom Bestand');
    expect(archived.className).toContain('text-decoration-line-through');
    expect(archived.parentElement?.textContent).toContain('archiviert');
    expect(within(groups[1] as HTMLElement).getByText('Strom Neu').className).not.toContain('line-through');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says so when the contact is on no list', async () => {
    installFetch(() => jsonResponse(200, { count: 0, content: [] }));
    render(<CriteriaPanel contact={contact(5)} onClose={() => {}} />);
    expect((await screen.findByTestId('criteria-empty')).textContent).toBe('Keine Kriterien hinterlegt.');
  });

  it('shows the read error toast when the lists cannot be loaded', async () => {
    installFetch(() => jsonResponse(500, { message: 'kaputt', code: 'internal' }));
    render(<CriteriaPanel contact={contact(5)} onClose={() => {}} />);
    await screen.findByText('Die Kriterien konnten nicht geladen werden.');
    expect(getToasts().map(({ type, message }) => ({ type, message }))).toEqual([
      { type: 'error', message: 'Ein unerwarteter Fehler ist aufgetreten!' },
    ]);
  });
});
