// The contact editor's "Kriterien" section: the button opening the picker, its error and hint, the chosen criteria.
import type { ListRef } from './types';

export interface CriteriaSectionProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  /** The chosen list ids. */
  lists: readonly number[];
  /** The lists known by name, by id. */
  listNames: Readonly<Record<number, ListRef>>;
  listsError: string | null;
  /** Admin or BU-Moderator: may change the criteria. */
  mayEditDetails: boolean;
  onOpenPicker: () => void;
}

export function CriteriaSection({
  idPrefix: ids,
  lists,
  listNames,
  listsError,
  mayEditDetails,
  onOpenPicker,
}: CriteriaSectionProps) {
  return (
    <section className="mb-4" aria-labelledby={`${ids}-criteria`} data-testid="criteria-section">
      <h2 id={`${ids}-criteria`} className="h5">
        Kriterien
      </h2>
      <button
        type="button"
        className={`btn btn-outline-primary${listsError ? ' border-danger' : ''}`}
        onClick={onOpenPicker}
        disabled={!mayEditDetails}
        aria-describedby={listsError ? `${ids}-lists-error` : undefined}
        data-testid="open-criteria"
      >
        <i className="bi bi-list-check me-1" aria-hidden="true" />
        Kriterien auswählen (<span data-testid="criteria-count">{lists.length}</span>)
      </button>
      {listsError && (
        <div id={`${ids}-lists-error`} className="invalid-feedback d-block" data-testid="lists-error">
          {listsError}
        </div>
      )}
      <div className="form-text">
        {mayEditDetails
          ? 'Alle Kontakte der Kundengruppe erhalten die ausgewählten Kriterien.'
          : 'Kriterien können nur Administratoren und BU-Moderatoren ändern; neue Kontakte erhalten die Kriterien der Kundengruppe.'}
      </div>
      {lists.length > 0 && (
        <ul className="list-inline mt-2 mb-0" aria-label="Ausgewählte Kriterien" data-testid="chosen-criteria">
          {lists.map((id) => {
            const list = listNames[id];
            const inactive = list?.active === false;
            return (
              <li key={id} className="list-inline-item mb-1" data-list-id={id}>
                <span className="badge text-bg-light border fw-normal">
                  <span className={inactive ? 'text-decoration-line-through' : undefined}>
                    {list?.name ?? `Kriterium ${id}`}
                  </span>
                  {list?.providerName ? <span className="text-body-secondary"> · {list.providerName}</span> : null}
                  {inactive && <span className="visually-hidden"> (archiviert)</span>}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
