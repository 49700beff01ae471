// The modals of the admin downloads list: criteria, files (download manager), statistics, delete and settings.
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Modal } from '../../../components/Modal';
import { dayOf } from '../../../lib/berlinDay';
import type { Download } from '../../../lib/downloads';
import { PackageStatsModal } from '../../insight/admin-statistics/PackageStatsModal';
import { lastDays } from '../../insight/admin-statistics/range';
import { CriteriaPanel } from './CriteriaPanel';
import { DownloadManagerModal } from './DownloadManagerModal';

// Spec §2 quotes this text; quoted texts are used verbatim.
export const SETTINGS_MESSAGE = 'Feature in development...';

export type ModalState =
  | { kind: 'criteria' | 'manager' | 'delete' | 'statistics'; download: Download }
  | { kind: 'settings' }
  | null;

interface AdminDownloadsModalsProps {
  modal: ModalState;
  onClose: () => void;
  productName: string;
  browserZipLimitMb: number;
  isAdmin: boolean;
  /** The deletion is under way. */
  deleting: boolean;
  onDelete: (download: Download) => void;
}

export function AdminDownloadsModals({ modal, onClose, productName, browserZipLimitMb, isAdmin, deleting, onDelete }: AdminDownloadsModalsProps) {
  return (
    <>
      {modal?.kind === 'criteria' && <CriteriaPanel download={modal.download} onClose={onClose} />}
      {modal?.kind === 'manager' && (
        <DownloadManagerModal
          download={modal.download}
          productName={productName}
          browserZipLimitMb={browserZipLimitMb}
          onClose={onClose}
        />
      )}
      {modal?.kind === 'statistics' && (
        <PackageStatsModal
          packageId={modal.download.id}
          name={modal.download.name}
          range={lastDays(dayOf(new Date()))}
          isAdmin={isAdmin}
          onClose={onClose}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmModal
          title="Download löschen"
          confirmLabel="Löschen"
          danger
          busy={deleting}
          onConfirm={() => onDelete(modal.download)}
          onClose={onClose}
          testId="delete-modal"
          confirmTestId="confirm-delete"
        >
          <p className="mb-0">Download „{modal.download.name}“ mit allen Dateien wirklich löschen?</p>
        </ConfirmModal>
      )}
      {modal?.kind === 'settings' && (
        <Modal
          title="Download-Einstellungen"
          onClose={onClose}
          testId="settings-modal"
          footer={
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Schließen
            </button>
          }
        >
          <p className="mb-0">{SETTINGS_MESSAGE}</p>
        </Modal>
      )}
    </>
  );
}
