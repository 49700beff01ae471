// The contact editor's footer: the link back and the submit button ("Anlegen" or "Aktualisieren").

export interface EditorFooterProps {
  /** Where "Zurück" leads. */
  backPath: string;
  /** The group is loaded (without error): it can be saved. */
  ready: boolean;
  /** Saving, or checking emails before saving. */
  busy: boolean;
  /** Saving creates the group. */
  creating: boolean;
}

export function EditorFooter({ backPath, ready, busy, creating }: EditorFooterProps) {
  return (
    <div className="d-flex flex-wrap justify-content-between gap-2 mt-4">
      <a href={backPath} className="btn btn-outline-secondary" data-testid="back">
        <i className="bi bi-arrow-left me-1" aria-hidden="true" />
        Zurück zu den Kontakten
      </a>
      <button type="submit" className="btn btn-primary" disabled={!ready || busy} data-testid="submit">
        {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        {creating ? 'Anlegen' : 'Aktualisieren'}
      </button>
    </div>
  );
}
