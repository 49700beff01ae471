// The admin navigation (spec §2 "Layout"): Händler, the Anbieter dropdown, "Neuer Anbieter"
// (admin only, opens the provider form), Downloads, Statistik, Tags and Protokoll (admin only;
// the tag screen and the audit log); the entry of the current page is marked.
import { useEffect, useId, useState } from 'react';
import { AUDIT_PATH } from '../../../lib/audit';
import { useDropdown } from '../../../lib/useDropdown';
import { onProviderSaved } from './events';
import { ProviderFormModal } from './ProviderFormModal';

export interface AdminMenuProvider {
  id: number;
  name: string;
}

export interface AdminMenuProps {
  /** The providers the user may see. */
  providers: AdminMenuProvider[];
  /** GS-Aktionsportal-Admin: may add providers and read the audit log. */
  isAdmin: boolean;
  /** Path of the current page, e.g. /admin/provider/3. */
  currentPath: string;
}

type Section = 'contacts' | 'providers' | 'downloads' | 'statistics' | 'tags' | 'audit' | null;

export const TAGS_PATH = '/admin/tags';

function normalizePath(path: string): string {
  const clean = path.split(/[?#]/)[0] ?? '';
  return clean.length > 1 ? clean.replace(/\/+$/, '') : clean;
}

/** Which entry the current page belongs to. */
export function activeSection(path: string): Section {
  const clean = normalizePath(path);
  if (clean === '/admin' || clean.startsWith('/admin/contact')) return 'contacts';
  if (clean.startsWith('/admin/provider/')) return 'providers';
  if (clean.startsWith('/admin/download')) return 'downloads';
  if (clean.startsWith('/admin/statistics')) return 'statistics';
  if (clean === TAGS_PATH) return 'tags';
  if (clean === AUDIT_PATH || clean.startsWith(`${AUDIT_PATH}/`)) return 'audit';
  return null;
}

export function providerPath(id: number): string {
  return `/admin/provider/${id}`;
}

function linkClass(active: boolean): string {
  return `nav-link${active ? ' active' : ''}`;
}

interface MenuLinkProps {
  href: string;
  active: boolean;
  testId: string;
  /** Bootstrap icon class, e.g. `bi-people`. */
  icon: string;
  label: string;
}

/** One plain entry of the menu. */
function MenuLink({ href, active, testId, icon, label }: MenuLinkProps) {
  return (
    <li className="nav-item">
      <a className={linkClass(active)} href={href} aria-current={active ? 'page' : undefined} data-testid={testId}>
        <i className={`bi ${icon} me-1`} aria-hidden="true" />
        {label}
      </a>
    </li>
  );
}

/** The entries of the Anbieter dropdown, the current provider marked. */
function ProviderItems({ providers, path }: { providers: AdminMenuProvider[]; path: string }) {
  if (providers.length === 0) {
    return (
      <li>
        <span className="dropdown-item-text text-body-secondary">Keine Anbieter vorhanden</span>
      </li>
    );
  }
  return providers.map((provider) => {
    const active = path === providerPath(provider.id);
    return (
      <li key={provider.id}>
        <a
          className={`dropdown-item${active ? ' active' : ''}`}
          href={providerPath(provider.id)}
          aria-current={active ? 'page' : undefined}
          data-testid="providers-dropdown-item"
          data-provider-id={provider.id}
        >
          {provider.name}
        </a>
      </li>
    );
  });
}

export default function AdminMenu({ providers: initialProviders, isAdmin, currentPath }: AdminMenuProps) {
  const [providers, setProviders] = useState<AdminMenuProvider[]>(() => initialProviders ?? []);
  const { open, setOpen, containerRef: dropdownRef, toggleRef } = useDropdown<HTMLLIElement>();
  const [creating, setCreating] = useState(false);
  const menuId = useId();
  const section = activeSection(currentPath ?? '');
  const path = normalizePath(currentPath ?? '');

  // A provider renamed elsewhere on the page (the settings modal) shows its new name here.
  useEffect(
    () =>
      onProviderSaved((saved) =>
        setProviders((current) =>
          current.map((item) => (item.id === saved.id ? { id: saved.id, name: saved.name } : item)),
        ),
      ),
    [],
  );

  return (
    <nav className="ap-admin-menu mb-4" aria-label="Adminmenü" data-testid="admin-menu">
      <ul className="nav nav-pills flex-wrap gap-1">
        <MenuLink href="/admin/contacts" active={section === 'contacts'} testId="admin-menu-contacts" icon="bi-people" label="Händler" />
        <li className="nav-item dropdown" ref={dropdownRef}>
          <button
            ref={toggleRef}
            type="button"
            className={`${linkClass(section === 'providers')} dropdown-toggle`}
            aria-expanded={open}
            aria-controls={menuId}
            onClick={() => setOpen((value) => !value)}
            data-testid="providers-dropdown-toggle"
          >
            <i className="bi bi-building me-1" aria-hidden="true" />
            Anbieter
          </button>
          {open && (
            <ul id={menuId} className="dropdown-menu show ap-providers-menu" data-bs-popper="static" data-testid="providers-dropdown">
              <ProviderItems providers={providers} path={path} />
            </ul>
          )}
        </li>
        {isAdmin && (
          <li className="nav-item">
            <button
              type="button"
              className="nav-link"
              onClick={() => {
                setOpen(false);
                setCreating(true);
              }}
              data-testid="new-provider-button"
            >
              <i className="bi bi-plus-circle me-1" aria-hidden="true" />
              Neuer Anbieter
            </button>
          </li>
        )}
        <MenuLink href="/admin/downloads" active={section === 'downloads'} testId="admin-menu-downloads" icon="bi-download" label="Downloads" />
        <MenuLink href="/admin/statistics" active={section === 'statistics'} testId="admin-menu-statistics" icon="bi-bar-chart" label="Statistik" />
        {isAdmin && (
          <MenuLink href={TAGS_PATH} active={section === 'tags'} testId="admin-menu-tags" icon="bi-tags" label="Tags" />
        )}
        {isAdmin && (
          <MenuLink href={AUDIT_PATH} active={section === 'audit'} testId="admin-menu-audit" icon="bi-journal-text" label="Protokoll" />
        )}
      </ul>
      {creating && (
        <ProviderFormModal
          mode="create"
          onClose={() => setCreating(false)}
          onCreated={(created) =>
            setProviders((current) => [
              { id: created.id, name: created.name },
              ...current.filter((item) => item.id !== created.id),
            ])
          }
        />
      )}
    </nav>
  );
}
