// The contact editor's "Zu entfernende Kontakte" section: contacts removed on saving, each with a restore button.
import { ContactTableHead, RemovedRow } from './ContactRows';
import type { ExistingRow } from './editorState';

export interface RemovedSectionProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  rows: readonly ExistingRow[];
  onRestore: (row: ExistingRow) => void;
}

export function RemovedSection({ idPrefix: ids, rows, onRestore }: RemovedSectionProps) {
  return (
    <section className="mb-4" aria-labelledby={`${ids}-removed`} data-testid="removed-section">
      <h2 id={`${ids}-removed`} className="h5">
        Zu entfernende Kontakte <span className="badge text-bg-secondary">{rows.length}</span>
      </h2>
      {rows.length === 0 ? (
        <p className="text-body-secondary" data-testid="removed-empty">
          Keine Kontakte zum Entfernen vorgemerkt.
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table ap-contact-table" aria-labelledby={`${ids}-removed`}>
            <ContactTableHead />
            <tbody>
              {rows.map((row) => (
                <RemovedRow
                  key={row.key}
                  rowKey={row.key}
                  fields={row.fields}
                  email={row.contact.email}
                  onRestore={() => onRestore(row)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
