// The contact editor's "Neue Kontakte" section: the contacts to be created, and the button adding one.
import { ContactFieldsRow, ContactTableHead } from './ContactRows';
import type { FieldName, NewRow } from './editorState';

export interface NewContactsSectionProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  rows: readonly NewRow[];
  rowErrors: (rowKey: string) => Partial<Record<FieldName, string | null>>;
  isChecking: (rowKey: string) => boolean;
  onEdit: (row: NewRow, field: FieldName, value: string) => void;
  onDiscard: (row: NewRow) => void;
  onAdd: () => void;
}

export function NewContactsSection({
  idPrefix: ids,
  rows,
  rowErrors,
  isChecking,
  onEdit,
  onDiscard,
  onAdd,
}: NewContactsSectionProps) {
  return (
    <section className="mb-4" aria-labelledby={`${ids}-new`} data-testid="new-section">
      <h2 id={`${ids}-new`} className="h5">
        Neue Kontakte <span className="badge text-bg-secondary">{rows.length}</span>
      </h2>
      {rows.length > 0 && (
        <div className="table-responsive">
          <table className="table ap-contact-table" aria-labelledby={`${ids}-new`}>
            <ContactTableHead />
            <tbody>
              {rows.map((row, index) => (
                <ContactFieldsRow
                  key={row.key}
                  idPrefix={ids}
                  rowKey={row.key}
                  fields={row.fields}
                  errors={rowErrors(row.key)}
                  checking={isChecking(row.key)}
                  namesReadOnly={false}
                  onChange={(field, value) => onEdit(row, field, value)}
                  testId="new-contact"
                  data={{ 'data-origin': row.candidateKey === null ? 'manual' : 'candidate' }}
                  badges={
                    row.candidateKey !== null ? (
                      <span className="badge text-bg-info" data-testid="badge-candidate">
                        aus der Planung
                      </span>
                    ) : null
                  }
                  actions={
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => onDiscard(row)}
                      aria-label={`Neuen Kontakt ${index + 1} entfernen`}
                      title="Entfernen"
                      data-testid="discard-contact"
                    >
                      <i className="bi bi-x-lg" aria-hidden="true" />
                    </button>
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" className="btn btn-outline-primary" onClick={onAdd} data-testid="add-contact">
        <i className="bi bi-plus-lg me-1" aria-hidden="true" />
        Kontakt hinzufügen
      </button>
    </section>
  );
}
