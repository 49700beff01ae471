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

  function linkClass(active: boolean): string {
    return `nav-link${active ? ' active' : ''}`;
  }

  return (
    <nav className="ap-admin-menu mb-4" aria-label="Adminmenü" data-testid="admin-menu">
      <ul className="nav nav-pills flex-wrap gap-1">
        <li className="nav-item">
          <a
            className={linkClass(section === 'contacts')}
            href="/admin/contacts"
            aria-current={section === 'contacts' ? 'page' : undefined}
            data-testid="admin-menu-contacts"
          >
            <i className="bi bi-people me-1" aria-hidden="true" />
            Händler
          </a>
        </li>
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
              {providers.length === 0 ? (
                <li>
                  <span className="dropdown-item-text text-body-secondary">Keine Anbieter vorhanden</span>
                </li>
              ) : (
                providers.map((provider) => {
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
                })
              )}
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
        <li className="nav-item">
          <a
            className={linkClass(section === 'downloads')}
            href="/admin/downloads"
            aria-current={section === 'downloads' ? 'page' : undefined}
            data-testid="admin-menu-downloads"
          >
            <i className="bi bi-download me-1" aria-hidden="true" />
            Downloads
          </a>
        </li>
        <li className="nav-item">
          <a
            className={linkClass(section === 'statistics')}
            href="/admin/statistics"
            aria-current={section === 'statistics' ? 'page' : undefined}
            data-testid="admin-menu-statistics"
          >
            <i className="bi bi-bar-chart me-1" aria-hidden="true" />
            Statistik
          </a>
        </li>
        {isAdmin && (
          <li className="nav-item">
            <a
              className={linkClass(section === 'tags')}
              href={TAGS_PATH}
              aria-current={section === 'tags' ? 'page' : undefined}
              data-testid="admin-menu-tags"
            >
              <i className="bi bi-tags me-1" aria-hidden="true" />
              Tags
            </a>
          </li>
        )}
        {isAdmin && (
          <li className="nav-item">
            <a
              className={linkClass(section === 'audit')}
              href={AUDIT_PATH}
              aria-current={section === 'audit' ? 'page' : undefined}
              data-testid="admin-menu-audit"
            >
              <i className="bi bi-journal-text me-1" aria-hidden="true" />
              Protokoll
            </a>
          </li>
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
