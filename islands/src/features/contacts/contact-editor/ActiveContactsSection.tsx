// The contact editor's "Aktive Kontakte" section: the group's contacts, with export, erase, block and remove actions.
import { ConsentNote } from './ConsentNote';
import { ContactFieldsRow, ContactTableHead } from './ContactRows';
import type { ExistingRow, FieldName } from './editorState';
import { ERASE_LABEL } from './messages';
import type { Contact } from './types';

export interface ActiveContactsSectionProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  rows: readonly ExistingRow[];
  rowErrors: (rowKey: string) => Partial<Record<FieldName, string | null>>;
  isChecking: (rowKey: string) => boolean;
  /** Admin or BU-Moderator: names, removing, blocking. */
  mayEditDetails: boolean;
  /** Admin: data export and erasure. */
  isAdmin: boolean;
  /** The contacts being blocked or unblocked right now. */
  blocking: ReadonlySet<number>;
  onEdit: (row: ExistingRow, field: FieldName, value: string) => void;
  onErase: (contact: Contact) => void;
  onToggleBlock: (row: ExistingRow) => void;
  onRemove: (row: ExistingRow) => void;
}

type RowActionsProps = Pick<ActiveContactsSectionProps, 'isAdmin' | 'blocking' | 'onErase' | 'onToggleBlock' | 'onRemove'> & {
  row: ExistingRow;
};

function RowBadges({ contact }: { contact: Contact }) {
  return (
    <>
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
      <ConsentNote consent={contact.consent} />
    </>
  );
}

function RowActions({ row, isAdmin, blocking, onErase, onToggleBlock, onRemove }: RowActionsProps) {
  return (
    <>
      {isAdmin && (
        <a
          className="btn btn-sm btn-outline-secondary me-1"
          href={`/api/contacts/${row.contact.id}/export`}
          download={`Kontakt-${row.contact.id}.json`}
          aria-label={`${row.contact.email}: Daten exportieren`}
          title="Daten exportieren"
          data-testid="export-contact"
        >
          <i className="bi bi-file-earmark-arrow-down" aria-hidden="true" />
        </a>
      )}
      {isAdmin && (
        <button
          type="button"
          className="btn btn-sm btn-outline-danger me-1"
          onClick={() => onErase(row.contact)}
          aria-label={`${row.contact.email}: ${ERASE_LABEL}`}
          title={ERASE_LABEL}
          data-testid="erase-contact"
        >
          <i className="bi bi-shield-x" aria-hidden="true" />
        </button>
      )}
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary me-1"
        onClick={() => onToggleBlock(row)}
        disabled={blocking.has(row.contact.id)}
        aria-label={`${row.contact.email} ${row.contact.emailBlacklisted ? 'entsperren' : 'sperren'}`}
        title={row.contact.emailBlacklisted ? 'Entsperren' : 'Sperren'}
        data-testid="toggle-block"
      >
        <i className={`bi ${row.contact.emailBlacklisted ? 'bi-unlock' : 'bi-lock'}`} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="btn btn-sm btn-outline-danger"
        onClick={() => onRemove(row)}
        aria-label={`${row.contact.email} entfernen`}
        title="Entfernen"
        data-testid="remove-contact"
        data-field="remove"
      >
        <i className="bi bi-person-dash" aria-hidden="true" />
      </button>
    </>
  );
}

export function ActiveContactsSection({
  idPrefix: ids,
  rows,
  rowErrors,
  isChecking,
  mayEditDetails,
  onEdit,
  ...actions
}: ActiveContactsSectionProps) {
  return (
    <section className="mb-4" aria-labelledby={`${ids}-active`} data-testid="active-section">
      <h2 id={`${ids}-active`} className="h5">
        Aktive Kontakte <span className="badge text-bg-secondary">{rows.length}</span>
      </h2>
      {rows.length === 0 ? (
        <p className="text-body-secondary" data-testid="active-empty">
          Zu dieser Kundennummer gibt es noch keine Kontakte.
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table ap-contact-table" aria-labelledby={`${ids}-active`}>
            <ContactTableHead />
            <tbody>
              {rows.map((row) => (
                <ContactFieldsRow
                  key={row.key}
                  idPrefix={ids}
                  rowKey={row.key}
                  fields={row.fields}
                  errors={rowErrors(row.key)}
                  checking={isChecking(row.key)}
                  namesReadOnly={!mayEditDetails}
                  onChange={(field, value) => onEdit(row, field, value)}
                  testId="active-contact"
                  data={{ 'data-contact-id': String(row.contact.id), 'data-email': row.contact.email }}
                  badges={<RowBadges contact={row.contact} />}
                  actions={mayEditDetails ? <RowActions row={row} {...actions} /> : null}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
