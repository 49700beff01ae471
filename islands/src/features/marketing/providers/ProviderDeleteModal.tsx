// Deleting a provider (spec §2): confirm, optionally also delete its marketing folders (default
// off), then go to the first remaining provider, or to the downloads when none is left.
import { useId, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { toastReadError, toastWriteError } from '../../../lib/apiToasts';
import { navigateTo } from '../../../lib/navigate';
import { showAfterNavigation } from '../../../lib/toast';
import { deleteProvider, fetchProviders } from './api';

export const REMOVED_MESSAGE = 'Erfolgreich entfernt';

export interface ProviderDeleteModalProps {
  provider: { id: number; name: string };
  onClose: () => void;
}

export function ProviderDeleteModal({ provider, onClose }: ProviderDeleteModalProps) {
  const [deleteFolders, setDeleteFolders] = useState(false);
  const [busy, setBusy] = useState(false);
  const checkboxId = useId();

  async function confirm() {
    if (busy) return;
    setBusy(true);
    try {
      await deleteProvider(provider.id, deleteFolders);
    } catch (error) {
      toastWriteError(error);
      setBusy(false);
      return;
    }
    showAfterNavigation({ type: 'success', message: REMOVED_MESSAGE });
    let target = '/admin/downloads';
    try {
      const remaining = await fetchProviders({ limit: 1, offset: 0 });
      const first = remaining.content[0];
      if (first) target = `/admin/provider/${first.id}`;
    } catch (error) {
      toastReadError(error);
    }
    navigateTo(target);
  }

  return (
    <ConfirmModal
      title="Anbieter löschen"
      confirmLabel="Löschen"
      onConfirm={() => void confirm()}
      onClose={onClose}
      busy={busy}
      danger
      testId="provider-delete-modal"
      confirmTestId="confirm-delete-provider"
    >
      <p>
        Anbieter „{provider.name}“ wirklich löschen? Alle Kriterien und Downloads des Anbieters werden entfernt.
      </p>
      <div className="form-check">
        <input
          id={checkboxId}
          type="checkbox"
          className="form-check-input"
          checked={deleteFolders}
          onChange={(event) => setDeleteFolders(event.target.checked)}
          disabled={busy}
          data-testid="delete-folders"
        />
        <label htmlFor={checkboxId} className="form-check-label">
          Marketing-Ordner ebenfalls löschen
        </label>
      </div>
    </ConfirmModal>
  );
}
