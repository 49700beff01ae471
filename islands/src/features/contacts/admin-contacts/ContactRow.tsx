// One contact of the admin contacts table (spec §2 "Admin contacts"): customer number, email
// with its state badges, created and modified, and the action menu.
import { useId } from 'react';
import { RowMenu } from '../../../components/ListScreen';
import { auditHistoryPath } from '../../../lib/audit';
import { formatDateTime } from '../../../lib/format';
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

/** Why a blocked contact's send action is disabled (shown under it, and its description). */
export const BLOCKED_EMAIL_REASON = 'Die E-Mail-Adresse ist gesperrt.';

/**
 * The send action (spec §2): offered only while the contact has not confirmed. A blocked contact
 * still sees it, but disabled with the reason: the mail would not go out until unblocked.
 */
export function doubleOptInAction(contact: Contact): 'hidden' | 'enabled' | 'blocked' {
  if (contact.doubleOptIn) return 'hidden';
  return contact.emailBlacklisted ? 'blocked' : 'enabled';
}

export interface ContactRowProps {
  contact: Contact;
  busy: boolean;
  /** Block, unblock and delete (Admin, BU-Moderator). */
  mayEditDetails: boolean;
  /** GS-Aktionsportal-Admin: the menu links to the contact's history in the audit log. */
  isAdmin?: boolean;
  actions: RowActions;
}

export function ContactRow({ contact, busy, mayEditDetails, isAdmin = false, actions }: ContactRowProps) {
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
        <ActionMenu
          contact={contact}
          busy={busy}
          mayEditDetails={mayEditDetails}
          isAdmin={isAdmin}
          actions={actions}
        />
      </td>
    </tr>
  );
}

function ActionMenu({ contact, busy, mayEditDetails, isAdmin = false, actions }: ContactRowProps) {
  const doubleOptIn = doubleOptInAction(contact);
  const reasonId = useId();
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
          {isAdmin && (
            <li>
              <a
                className="dropdown-item"
                href={auditHistoryPath('contact', contact.id)}
                data-testid="action-history"
              >
                <i className="bi bi-clock-history me-2" aria-hidden="true" />
                Verlauf
              </a>
            </li>
          )}
          {doubleOptIn === 'enabled' && (
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
          {doubleOptIn === 'blocked' && (
            <li>
              {/* aria-disabled, not disabled: the item stays reachable by the arrow keys, so
                  keyboard and screen reader users meet the reason too. */}
              <button
                type="button"
                className="dropdown-item"
                aria-disabled="true"
                aria-describedby={reasonId}
                data-testid="action-double-opt-in"
              >
                <i className="bi bi-envelope-check me-2" aria-hidden="true" />
                Double-Opt-In senden
              </button>
              <div id={reasonId} className="ap-dropdown-reason" data-testid="double-opt-in-reason">
                {BLOCKED_EMAIL_REASON}
              </div>
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
