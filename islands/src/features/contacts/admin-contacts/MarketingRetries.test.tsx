import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { clearToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import { MarketingRetriesAlert, operationLabel } from './MarketingRetries';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('MarketingRetriesAlert', () => {
  it('shows nothing while nothing waits', () => {
    const { container } = render(<MarketingRetriesAlert count={0} />);
    expect(container.innerHTML).toBe('');
  });

  it('warns with the count and lists the waiting changes in a modal', async () => {
    const { requests } = installFetch(() =>
      jsonResponse(200, {
        count: 2,
        content: [
          {
            id: 1,
            email: 'anna@example.de',
            operation: 'update',
            attempts: 3,
            lastError: 'Brevo antwortet nicht',
            createdAt: '2025-03-05T14:07:00Z',
            updatedAt: '2025-03-05T15:07:00Z',
          },
          {
            id: 2,
            email: 'ben@example.de',
            operation: 'delete',
            attempts: 1,
            lastError: null,
            createdAt: '2025-03-05T14:07:00Z',
            updatedAt: '2025-03-05T14:07:00Z',
          },
        ],
      }),
    );
    render(<MarketingRetriesAlert count={2} />);
    expect(screen.getByTestId('retries-alert').textContent).toContain(
      '2 Änderungen warten noch auf die Übertragung an Brevo.',
    );
    expect(requests).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Änderungen anzeigen' }));
    const rows = await screen.findAllByTestId('retry-row');
    expect(requests.map((r) => r.path)).toEqual(['/api/contacts/marketing-retries']);
    expect(within(rows[0] as HTMLElement).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'anna@example.de',
      'Aktualisieren',
      '3',
      'Brevo antwortet nicht',
      '05.03.2025, 15:07',
      '05.03.2025, 16:07',
    ]);

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('retries-modal')).toBeNull();
  });

  it('speaks of one change in the singular', () => {
    render(<MarketingRetriesAlert count={1} />);
    expect(screen.getByTestId('retries-alert').textContent).toContain(
      '1 Änderung wartet noch auf die Übertragung an Brevo.',
    );
  });

  it('names the operations in German', () => {
    expect(operationLabel('upsert')).toBe('Anlegen oder Aktualisieren');
    expect(operationLabel('delete')).toBe('Löschen');
    expect(operationLabel('other')).toBe('other');
  });
});
