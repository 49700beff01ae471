// The warning while contact changes still wait for Brevo, and the modal listing them.
import { useEffect, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { toastReadError } from '../../../lib/apiToasts';
import { formatDateTime } from '../../../lib/format';
import { fetchMarketingRetries } from './api';
import { retriesMessage } from './messages';
import type { MarketingRetry, Paged } from './types';

const OPERATIONS: Record<string, string> = {
  upsert: 'Anlegen oder Aktualisieren',
  update: 'Aktualisieren',
  delete: 'Löschen',
  provider_lists: 'Listen in die Ordner des Anbieters zurücklegen',
  delete_folder: 'Marketing-Ordner löschen',
};

export function operationLabel(operation: string): string {
  return OPERATIONS[operation] ?? operation;
}

export function MarketingRetriesAlert({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  if (count <= 0) return null;
  return (
    <div className="alert alert-warning d-flex flex-wrap align-items-center gap-2 mb-3" data-testid="retries-alert">
      <i className="bi bi-exclamation-triangle-fill" aria-hidden="true" />
      <span className="flex-grow-1">{retriesMessage(count)}</span>
      <button type="button" className="btn btn-sm btn-outline-dark" onClick={() => setOpen(true)} data-testid="retries-open">
        Änderungen anzeigen
      </button>
      {open && <MarketingRetriesModal onClose={() => setOpen(false)} />}
    </div>
  );
}

type State = { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; page: Paged<MarketingRetry> };

export function MarketingRetriesModal({ onClose }: { onClose: () => void }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchMarketingRetries(controller.signal)
      .then((page) => setState({ kind: 'loaded', page }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        toastReadError(error);
        setState({ kind: 'failed' });
      });
    return () => controller.abort();
  }, []);

  return (
    <Modal
      title="Ausstehende Übertragungen an Brevo"
      onClose={onClose}
      size="xl"
      testId="retries-modal"
      footer={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Schließen
        </button>
      }
    >
      {state.kind === 'loading' && (
        <p className="text-body-secondary mb-0" role="status">
          <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          Wird geladen …
        </p>
      )}
      {state.kind === 'failed' && <p className="text-body-secondary mb-0">Die Liste konnte nicht geladen werden.</p>}
      {state.kind === 'loaded' && (
        <>
          <p>
            {retriesMessage(state.page.count)} Das Portal versucht es regelmäßig erneut.
            {state.page.count > state.page.content.length &&
              ` Gezeigt werden die ältesten ${state.page.content.length}.`}
          </p>
          <div className="table-responsive">
            <table className="table table-sm align-middle mb-0">
              <thead>
                <tr>
                  <th scope="col">E-Mail / Betrifft</th>
                  <th scope="col">Vorgang</th>
                  <th scope="col">Versuche</th>
                  <th scope="col">Letzter Fehler</th>
                  <th scope="col">Erstellt</th>
                  <th scope="col">Geändert</th>
                </tr>
              </thead>
              <tbody>
                {state.page.content.map((retry) => (
                  <tr key={retry.id} data-testid="retry-row">
                    <td className="text-break">{retry.email}</td>
                    <td>{operationLabel(retry.operation)}</td>
                    <td>{retry.attempts}</td>
                    <td className="small text-break">{retry.lastError ?? ''}</td>
                    <td className="text-nowrap">{formatDateTime(retry.createdAt)}</td>
                    <td className="text-nowrap">{formatDateTime(retry.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Modal>
  );
}
