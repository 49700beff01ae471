// The contact editor's loading note and load error (with "Erneut versuchen" where trying again may help).
import { LOAD_FAILED } from './messages';

export interface EditorLoadStatusProps {
  loading: boolean;
  loadError: string | null;
  onRetry: () => void;
}

export function EditorLoadStatus({ loading, loadError, onRetry }: EditorLoadStatusProps) {
  return (
    <>
      {loading && (
        <p className="text-body-secondary" role="status" data-testid="editor-loading">
          <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          Kontakte werden geladen …
        </p>
      )}

      {loadError !== null && (
        <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert" data-testid="load-error">
          <span className="me-auto">{loadError}</span>
          {loadError === LOAD_FAILED && (
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={onRetry}>
              Erneut versuchen
            </button>
          )}
        </div>
      )}
    </>
  );
}
