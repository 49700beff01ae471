// The contact editor's "Importkandidaten aus der Planung" section: the planning system's note and its open candidates.
import { CandidateRow, ContactTableHead } from './ContactRows';
import type { CandidateEntry } from './editorState';

export interface CandidatesSectionProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  /** The candidates not taken over yet. */
  candidates: readonly CandidateEntry[];
  /** The import's note (null: none). */
  message: string | null;
  onTake: (key: string) => void;
}

export function CandidatesSection({ idPrefix: ids, candidates, message, onTake }: CandidatesSectionProps) {
  return (
    <section className="mb-4" aria-labelledby={`${ids}-imports`} data-testid="imports-section">
      <h2 id={`${ids}-imports`} className="h5">
        Importkandidaten aus der Planung <span className="badge text-bg-secondary">{candidates.length}</span>
      </h2>
      {message && (
        <div className="alert alert-info" role="status" data-testid="imports-message">
          <i className="bi bi-info-circle me-2" aria-hidden="true" />
          {message}
        </div>
      )}
      {candidates.length === 0 ? (
        <p className="text-body-secondary" data-testid="candidates-empty">
          Keine Importkandidaten vorhanden.
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table ap-contact-table" aria-labelledby={`${ids}-imports`}>
            <ContactTableHead />
            <tbody>
              {candidates.map((entry) => (
                <CandidateRow
                  key={entry.key}
                  rowKey={entry.key}
                  candidate={entry.candidate}
                  onTake={() => onTake(entry.key)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
