import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import AccountMenu from './AccountMenu';
import type { AccountMenuProps } from './AccountMenu';

const user = { name: 'Erika Mustermann', customerNumber: 123456, email: 'erika@example.org' };
const VIEWS = [
  { label: 'Kundenansicht', href: '/user/downloads', icon: 'bi-person-badge' },
  { label: 'Adminansicht', href: '/admin/contacts', icon: 'bi-tools' },
];

function setup(props: Partial<AccountMenuProps> = {}) {
  render(
    <div>
      <AccountMenu user={user} links={[]} loginUrl="/login" logoutUrl="/api/auth/logout" {...props} />
      <p>Außerhalb</p>
    </div>,
  );
  return screen.getByTestId('account-menu-toggle');
}

describe('AccountMenu', () => {
  it('starts closed and toggles the panel with the button', () => {
    const toggle = setup();
    expect(toggle.textContent).toContain('Mein Konto');
    expect(toggle.querySelector('.bi-person-circle')).not.toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('account-menu-panel')).toBeNull();

    fireEvent.click(toggle);
    const panel = screen.getByTestId('account-menu-panel');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe(panel.id);

    fireEvent.click(toggle);
    expect(screen.queryByTestId('account-menu-panel')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows the profile and the logout link', () => {
    fireEvent.click(setup());
    const panel = screen.getByTestId('account-menu-panel');

    expect(panel.textContent).toContain('Erika Mustermann');
    expect(panel.textContent).toContain('Kundennummer: 123456');
    expect(panel.textContent).toContain('erika@example.org');
    expect(screen.getByRole('link', { name: 'Abmelden' }).getAttribute('href')).toBe('/api/auth/logout');
    expect(screen.queryByRole('link', { name: 'Kundenansicht' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Adminansicht' })).toBeNull();
  });

  it('links to each area the server names', () => {
    fireEvent.click(setup({ links: VIEWS }));

    expect(screen.getByRole('link', { name: 'Kundenansicht' }).getAttribute('href')).toBe('/user/downloads');
    expect(screen.getByRole('link', { name: 'Adminansicht' }).getAttribute('href')).toBe('/admin/contacts');
  });

  it('gives a contact editor without the admin area its start page', () => {
    fireEvent.click(
      setup({ links: [{ label: 'Kontakte bearbeiten', href: '/admin/contact/edit', icon: 'bi-person-lines-fill' }] }),
    );

    expect(screen.getByRole('link', { name: 'Kontakte bearbeiten' }).getAttribute('href')).toBe('/admin/contact/edit');
    expect(screen.queryByRole('link', { name: 'Adminansicht' })).toBeNull();
  });

  it('leaves out the customer number line for users without one', () => {
    fireEvent.click(setup({ user: { ...user, customerNumber: null } }));

    expect(screen.getByTestId('account-menu-panel').textContent).not.toContain('Kundennummer');
  });

  it('offers the login when nobody is logged in', () => {
    fireEvent.click(setup({ user: null, links: VIEWS, loginUrl: '/api/auth/login' }));
    const panel = screen.getByTestId('account-menu-panel');

    expect(panel.textContent).toContain('Sie sind nicht angemeldet.');
    expect(screen.getByRole('link', { name: 'Anmelden' }).getAttribute('href')).toBe('/api/auth/login');
    expect(screen.queryByRole('link', { name: 'Abmelden' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Adminansicht' })).toBeNull();
  });

  it('closes on a click outside but not on a click inside', () => {
    const toggle = setup();
    fireEvent.click(toggle);

    fireEvent.pointerDown(screen.getByText('Erika Mustermann'));
    expect(screen.queryByTestId('account-menu-panel')).not.toBeNull();

    fireEvent.pointerDown(screen.getByText('Außerhalb'));
    expect(screen.queryByTestId('account-menu-panel')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Escape and gives the focus back to the button', () => {
    const toggle = setup();
    fireEvent.click(toggle);

    fireEvent.keyDown(document, { key: 'Escape' });

    expect(screen.queryByTestId('account-menu-panel')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });
});
