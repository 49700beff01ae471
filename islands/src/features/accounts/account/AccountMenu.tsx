// The header's "Mein Konto" dropdown: profile details, or a login button when not logged in.
// Own React state instead of Bootstrap's JS; closes on a click outside and on Escape.
import { useId } from 'react';
import { useDropdown } from '../../../lib/useDropdown';

export interface AccountUser {
  name: string;
  customerNumber: number | null;
  email: string;
}

/** A link to an area of the portal the user may work in (the server picks them by role). */
export interface AreaLink {
  label: string;
  href: string;
  /** Bootstrap icon class, e.g. `bi-tools`. */
  icon: string;
}

export interface AccountMenuProps {
  user: AccountUser | null;
  /** The areas the user may work in: customer view, admin view, "Kontakte bearbeiten". */
  links: AreaLink[];
  loginUrl: string;
  logoutUrl: string;
}

export default function AccountMenu({ user, links, loginUrl, logoutUrl }: AccountMenuProps) {
  const { open, setOpen, containerRef, toggleRef } = useDropdown<HTMLDivElement>();
  const panelId = useId();

  return (
    <div className="dropdown ap-account-menu" ref={containerRef}>
      <button
        ref={toggleRef}
        type="button"
        className="btn btn-outline-secondary dropdown-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="account-menu-toggle"
        onClick={() => setOpen((value) => !value)}
      >
        <i className="bi bi-person-circle me-1" aria-hidden="true" />
        Mein Konto
      </button>
      {open && (
        <div
          id={panelId}
          className="dropdown-menu dropdown-menu-end show p-3 ap-account-panel"
          // Bootstrap positions the menu below the toggle with this attribute (no Popper needed).
          data-bs-popper="static"
          data-testid="account-menu-panel"
        >
          {user ? (
            <>
              <p className="fw-semibold mb-1" data-testid="account-menu-name">
                {user.name}
              </p>
              {user.customerNumber !== null && (
                <p className="mb-1 small">Kundennummer: {user.customerNumber}</p>
              )}
              <p className="mb-2 small text-body-secondary text-break">{user.email}</p>
              {links.length > 0 && (
                <>
                  <hr className="dropdown-divider" />
                  {links.map((link) => (
                    <a key={link.href} className="dropdown-item rounded" href={link.href}>
                      <i className={`bi ${link.icon} me-2`} aria-hidden="true" />
                      {link.label}
                    </a>
                  ))}
                </>
              )}
              <hr className="dropdown-divider" />
              <a className="dropdown-item rounded" href={logoutUrl}>
                <i className="bi bi-box-arrow-right me-2" aria-hidden="true" />
                Abmelden
              </a>
            </>
          ) : (
            <>
              <p className="mb-2">Sie sind nicht angemeldet.</p>
              <a className="btn btn-primary w-100" href={loginUrl}>
                <i className="bi bi-box-arrow-in-right me-1" aria-hidden="true" />
                Anmelden
              </a>
            </>
          )}
        </div>
      )}
    </div>
  );
}
