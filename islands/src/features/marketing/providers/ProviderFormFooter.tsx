// The provider form's footer: delete (edit) or "create another" (create), cancel and submit.
interface ProviderFormFooterProps {
  isCreate: boolean;
  onDelete: (() => void) | undefined;
  onClose: () => void;
  saving: boolean;
  busy: boolean;
  createAnotherId: string;
  createAnother: boolean;
  onCreateAnotherChange: (checked: boolean) => void;
}

export function ProviderFormFooter({
  isCreate,
  onDelete,
  onClose,
  saving,
  busy,
  createAnotherId,
  createAnother,
  onCreateAnotherChange,
}: ProviderFormFooterProps) {
  return (
    <>
      {!isCreate && onDelete && (
        <button
          type="button"
          className="btn btn-outline-danger me-auto"
          onClick={onDelete}
          disabled={saving}
          data-testid="delete-provider"
        >
          <i className="bi bi-trash me-1" aria-hidden="true" />
          Anbieter löschen
        </button>
      )}
      {isCreate && (
        <div className="form-check me-auto">
          <input
            id={createAnotherId}
            type="checkbox"
            className="form-check-input"
            checked={createAnother}
            onChange={(event) => onCreateAnotherChange(event.target.checked)}
            data-testid="create-another"
          />
          <label htmlFor={createAnotherId} className="form-check-label">
            Danach weiteren Anbieter anlegen
          </label>
        </div>
      )}
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
        Abbrechen
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="provider-submit">
        {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        {isCreate ? 'Anlegen' : 'Speichern'}
      </button>
    </>
  );
}
