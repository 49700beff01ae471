// One contact of the admin contacts table (spec §2 "Admin contacts"): customer number, email
// with its state badges, created and modified, and the action menu.
import { RowMenu } from '../../components/ListScreen';
import { formatDateTime } from '../../lib/format';
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
  return (
    <RowMenu label={`Aktionen für ${contact.email}`} title="Aktionen" disabled={false} busy={busy}>
      {(run) => (
        <>
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
              onClick={run(() => actions.onShowCriteria(contact))}
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
                onClick={run(() => actions.onSendDoubleOptIn(contact))}
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
                  onClick={run(() => actions.onToggleBlock(contact))}
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
                  onClick={run(() => actions.onDelete(contact))}
                  data-testid="action-delete"
                >
                  <i className="bi bi-trash me-2" aria-hidden="true" />
                  Löschen
                </button>
              </li>
            </>
          )}
        </>
      )}
    </RowMenu>
  );
}
