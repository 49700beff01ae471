// One contact of the admin contacts table (spec §2 "Admin contacts"): customer number, email
// with its state badges, created and modified, and the action menu.
import { useId } from 'react';
import { formatDateTime } from '../../lib/format';
import { useDropdown } from '../../lib/useDropdown';
import { moveInMenu } from './menuKeys';
import type { Contact } from './types';

export interface RowActions {
  onShowCriteria: (contact: Contact) => void;
  onSendDoubleOptIn: (contact: Contact) => void;
  onToggleBlock: (contact: Contact) => void;
  onDelete: (contact: Contact) => void;
}

export function editPath(contact: Contact): string {
  return `/admin/contact/edit/${contact.customerNumber}`;
}

/** The send action is offered only while the contact has not confirmed and is not blocked. */
export function maySendDoubleOptIn(contact: Contact): boolean {
  return !contact.doubleOptIn && !contact.emailBlacklisted;
}

export interface ContactRowProps {
  contact: Contact;
  busy: boolean;
  /** Block, unblock and delete (Admin, BU-Moderator). */
  mayEditDetails: boolean;
  actions: RowActions;
}

export function ContactRow({ contact, busy, mayEditDetails, actions }: ContactRowProps) {
  return (
    <tr
      data-testid="contact-row"
      data-contact-id={contact.id}
      data-email={contact.email}
      data-blocked={String(contact.emailBlacklisted)}
      data-double-opt-in={String(contact.doubleOptIn)}
    >
      <td data-testid="customer-number">{contact.customerNumber}</td>
      <td>
        <span className="me-2 text-break" data-testid="contact-email">
          {contact.email}
        </span>
        {contact.emailBlacklisted && (
          <span className="badge text-bg-danger me-1" data-testid="badge-blocked">
            Gesperrt
          </span>
        )}
        {!contact.doubleOptIn && (
          <span className="badge text-bg-warning" data-testid="badge-pending">
            DOI ausstehend
          </span>
        )}
      </td>
      <td className="text-nowrap">{formatDateTime(contact.createdAt)}</td>
      <td className="text-nowrap">{formatDateTime(contact.updatedAt)}</td>
      <td className="text-end">
        <ActionMenu contact={contact} busy={busy} mayEditDetails={mayEditDetails} actions={actions} />
      </td>
    </tr>
  );
}

function ActionMenu({ contact, busy, mayEditDetails, actions }: ContactRowProps) {
  const { open, setOpen, containerRef, toggleRef } = useDropdown<HTMLDivElement>();
  const menuId = useId();

  /** Closes the menu with the focus on its toggle, where a modal opened by the item returns it. */
  function run(action: (contact: Contact) => void) {
    return () => {
      toggleRef.current?.focus();
      setOpen(false);
      action(contact);
    };
  }

  return (
    <div className="dropdown d-inline-block" ref={containerRef} onKeyDown={(event) => moveInMenu(event, open)}>
      <button
        ref={toggleRef}
        type="button"
        className="btn btn-sm btn-outline-secondary"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Aktionen für ${contact.email}`}
        title="Aktionen"
        disabled={busy}
        onClick={() => setOpen((was) => !was)}
        data-testid="row-actions"
      >
        {busy ? (
          <span className="spinner-border spinner-border-sm" aria-hidden="true" />
        ) : (
          <i className="bi bi-three-dots-vertical" aria-hidden="true" />
        )}
      </button>
      {open && (
        <ul
          id={menuId}
          className="dropdown-menu dropdown-menu-end show text-start"
          data-bs-popper="static"
          aria-label={`Aktionen für ${contact.email}`}
          data-testid="row-menu"
        >
          <li>
            <a className="dropdown-item" href={editPath(contact)} data-testid="action-edit">
              <i className="bi bi-pencil me-2" aria-hidden="true" />
              Bearbeiten
            </a>
          </li>
          <li>
            <button
              type="button"
              className="dropdown-item"
              onClick={run(actions.onShowCriteria)}
              data-testid="action-criteria"
            >
              <i className="bi bi-list-check me-2" aria-hidden="true" />
              Kriterien anzeigen
            </button>
          </li>
          {maySendDoubleOptIn(contact) && (
            <li>
              <button
                type="button"
                className="dropdown-item"
                onClick={run(actions.onSendDoubleOptIn)}
                data-testid="action-double-opt-in"
              >
                <i className="bi bi-envelope-check me-2" aria-hidden="true" />
                Double-Opt-In senden
              </button>
            </li>
          )}
          {mayEditDetails && (
            <>
              <li>
                <button
                  type="button"
                  className="dropdown-item"
                  onClick={run(actions.onToggleBlock)}
                  data-testid="action-block"
                >
                  <i
                    className={`bi ${contact.emailBlacklisted ? 'bi-unlock' : 'bi-slash-circle'} me-2`}
                    aria-hidden="true"
                  />
                  {contact.emailBlacklisted ? 'Entsperren' : 'Sperren'}
                </button>
              </li>
              <li>
                <hr className="dropdown-divider" />
              </li>
              <li>
                <button
                  type="button"
                  className="dropdown-item text-danger-emphasis"
                  onClick={run(actions.onDelete)}
                  data-testid="action-delete"
                >
                  <i className="bi bi-trash me-2" aria-hidden="true" />
                  Löschen
                </button>
              </li>
            </>
          )}
        </ul>
      )}
    </div>
  );
}
