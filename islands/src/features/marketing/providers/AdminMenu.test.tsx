import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { navigateTo } from '../../../lib/navigate';
import { clearToasts } from '../../../lib/toast';
import { installFetch, jsonResponse } from '../../../test/fetchMock';
import { announceProviderSaved } from './events';
import AdminMenu, { activeSection } from './AdminMenu';
import type { AdminMenuProps } from './AdminMenu';

vi.mock('../../../lib/navigate', () => ({ navigateTo: vi.fn() }));
vi.mock('../../../components/Toasts', () => ({ mountToastContainer: vi.fn() }));

const providers = [
  { id: 1, name: 'Marke A' },
  { id: 2, name: 'Marke B' },
];

function setup(props: Partial<AdminMenuProps> = {}) {
  render(
    <div>
      <AdminMenu providers={providers} isAdmin={false} currentPath="/admin/contacts" {...props} />
      <p>Außerhalb</p>
    </div>,
  );
  return screen.getByTestId('providers-dropdown-toggle');
}

beforeEach(() => {
  vi.mocked(navigateTo).mockClear();
});

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

describe('activeSection', () => {
  it('maps admin paths to their menu entry', () => {
    expect(activeSection('/admin/contacts')).toBe('contacts');
    expect(activeSection('/admin/contact/edit/123')).toBe('contacts');
    expect(activeSection('/admin/')).toBe('contacts');
    expect(activeSection('/admin/provider/4')).toBe('providers');
    expect(activeSection('/admin/downloads/')).toBe('downloads');
    expect(activeSection('/admin/download/edit/9?x=1')).toBe('downloads');
    expect(activeSection('/admin/statistics')).toBe('statistics');
    expect(activeSection('/admin/audit')).toBe('audit');
    expect(activeSection('/admin/audit/?entity=package&entityId=3')).toBe('audit');
    expect(activeSection('/admin/auditx')).toBeNull();
    expect(activeSection('/admin/tags/')).toBe('tags');
    expect(activeSection('/admin/tagsx')).toBeNull();
    expect(activeSection('/user/downloads')).toBeNull();
  });
});

describe('AdminMenu', () => {
  it('has the entries with their links and icons, and marks the current one', () => {
    setup({ currentPath: '/admin/downloads/' });

    expect(screen.getByRole('navigation', { name: 'Adminmenü' })).toBe(screen.getByTestId('admin-menu'));
    const dealers = screen.getByRole('link', { name: 'Händler' });
    expect(dealers.getAttribute('href')).toBe('/admin/contacts');
    expect(dealers.querySelector('.bi-people')).not.toBeNull();
    expect(dealers.className).not.toContain('active');
    const downloads = screen.getByRole('link', { name: 'Downloads' });
    expect(downloads.getAttribute('href')).toBe('/admin/downloads');
    expect(downloads.className).toContain('active');
    expect(downloads.getAttribute('aria-current')).toBe('page');
    expect(screen.queryByTestId('new-provider-button')).toBeNull();
    const statistics = screen.getByRole('link', { name: 'Statistik' });
    expect(statistics.getAttribute('href')).toBe('/admin/statistics');
    expect(statistics.querySelector('.bi-bar-chart')).not.toBeNull();
    expect(statistics.className).not.toContain('active');
  });

  it('shows Protokoll, the audit log, to admins only', () => {
    setup({ isAdmin: true });

    const audit = screen.getByRole('link', { name: 'Protokoll' });
    expect(audit).toBe(screen.getByTestId('admin-menu-audit'));
    expect(audit.getAttribute('href')).toBe('/admin/audit');
    expect(audit.querySelector('.bi-journal-text')).not.toBeNull();
    expect(audit.className).not.toContain('active');
    expect(audit.getAttribute('aria-current')).toBeNull();
    // The entries after Statistik.
    const entries = Array.from(screen.getByTestId('admin-menu').querySelectorAll('.nav-link')).map((item) =>
      item.textContent?.trim(),
    );
    expect(entries.slice(-3)).toEqual(['Statistik', 'Tags', 'Protokoll']);
    const tags = screen.getByRole('link', { name: 'Tags' });
    expect(tags.getAttribute('href')).toBe('/admin/tags');
    expect(tags.querySelector('.bi-tags')).not.toBeNull();
  });

  it('hides Protokoll from users who are not admins', () => {
    setup({ isAdmin: false, currentPath: '/admin/audit' });

    expect(screen.queryByTestId('admin-menu-audit')).toBeNull();
    expect(screen.queryByTestId('admin-menu-tags')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Protokoll' })).toBeNull();
  });

  it('marks Protokoll as the current page on the audit log', () => {
    setup({ isAdmin: true, currentPath: '/admin/audit?entity=provider&entityId=2' });

    const audit = screen.getByTestId('admin-menu-audit');
    expect(audit.className).toContain('active');
    expect(audit.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Statistik' }).getAttribute('aria-current')).toBeNull();
  });

  it('lists the providers in the dropdown and marks the current provider', () => {
    const toggle = setup({ currentPath: '/admin/provider/2' });
    expect(toggle.className).toContain('active');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);

    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const a = screen.getByRole('link', { name: 'Marke A' });
    const b = screen.getByRole('link', { name: 'Marke B' });
    expect(a.getAttribute('href')).toBe('/admin/provider/1');
    expect(b.getAttribute('href')).toBe('/admin/provider/2');
    expect(b.getAttribute('aria-current')).toBe('page');
    expect(a.className).not.toContain('active');
  });

  it('says when there are no providers', () => {
    fireEvent.click(setup({ providers: [] }));

    expect(screen.getByTestId('providers-dropdown').textContent).toBe('Keine Anbieter vorhanden');
  });

  it('closes the dropdown on Escape and on a click outside', () => {
    const toggle = setup();
    fireEvent.click(toggle);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('providers-dropdown')).toBeNull();
    expect(document.activeElement).toBe(toggle);

    fireEvent.click(toggle);
    fireEvent.pointerDown(screen.getByText('Außerhalb'));
    expect(screen.queryByTestId('providers-dropdown')).toBeNull();
  });

  it('shows a renamed provider under its new name', () => {
    const toggle = setup();
    act(() => {
      announceProviderSaved({
        id: 2,
        name: 'Marke B neu',
        allowedRoles: [],
        brevoActiveFolderId: null,
        brevoInactiveFolderId: null,
        uploadId: null,
        Upload: null,
        createdAt: '',
        updatedAt: '',
      });
    });
    fireEvent.click(toggle);

    expect(screen.getByRole('link', { name: 'Marke B neu' })).not.toBeNull();
  });

  it('lets admins open the add-provider modal; a provider created there joins the dropdown first', async () => {
    installFetch((request) => {
      if (request.path === '/api/brevo/folders/') return jsonResponse(200, { folders: [], count: 0 });
      return jsonResponse(200, {
        id: 9,
        name: 'Marke C',
        allowedRoles: ['GS-C'],
        brevoActiveFolderId: 11,
        brevoInactiveFolderId: 12,
        uploadId: null,
        Upload: null,
        createdAt: '',
        updatedAt: '',
      });
    });
    setup({ isAdmin: true });

    fireEvent.click(screen.getByTestId('new-provider-button'));
    expect(screen.getByRole('dialog', { name: 'Neuer Anbieter' })).not.toBeNull();
    fireEvent.click(screen.getByTestId('create-another'));
    fireEvent.change(screen.getByTestId('provider-name'), { target: { value: 'Marke C' } });
    fireEvent.change(screen.getByTestId('role-input'), { target: { value: 'GS-C' } });
    fireEvent.click(screen.getByTestId('role-add'));
    fireEvent.submit(screen.getByTestId('provider-form'));

    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('provider-name').value).toBe(''));
    // Escape does nothing while the save is still settling (the modal is busy): retried
    // until the modal takes it, which must happen.
    await waitFor(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(navigateTo).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('providers-dropdown-toggle'));
    expect(screen.getAllByTestId('providers-dropdown-item').map((item) => item.textContent)).toEqual([
      'Marke C',
      'Marke A',
      'Marke B',
    ]);
  });
});
