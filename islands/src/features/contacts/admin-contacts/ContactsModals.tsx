// The modals of the admin contacts screen: criteria, delete, double opt-in to all, sync manager and planning import.
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CriteriaPanel } from './CriteriaPanel';
import { deleteQuestion } from './messages';
import { PlanningImportModal } from './PlanningImportModal';
import { SyncManagerModal } from './SyncManagerModal';
import type { Contact } from './types';

export type ModalState =
  | { kind: 'criteria' | 'delete'; contact: Contact }
  | { kind: 'sendAll' }
  | { kind: 'sync' }
  | { kind: 'importPlanning' }
  | null;

interface ContactsModalsProps {
  modal: ModalState;
  onClose: () => void;
  isAdmin: boolean;
  production: boolean;
  /** The deletion is under way. */
  deleting: boolean;
  onDelete: (contact: Contact) => void;
  /** The mail to all pending contacts is being started. */
  sendingAll: boolean;
  onSendAll: () => void;
  /** Pending contacts a mail can go to (not blocked), and all pending contacts. */
  pendingCounts: { count: number; total: number };
  /** The sync manager changed contacts: the list loads again. */
  onSynced: () => void;
}

export function ContactsModals({
  modal,
  onClose,
  isAdmin,
  production,
  deleting,
  onDelete,
  sendingAll,
  onSendAll,
  pendingCounts,
  onSynced,
}: ContactsModalsProps) {
  return (
    <>
      {modal?.kind === 'criteria' && <CriteriaPanel contact={modal.contact} onClose={onClose} />}
      {modal?.kind === 'delete' && (
        <ConfirmModal
          title="Kontakt löschen"
          confirmLabel="Löschen"
          danger
          busy={deleting}
          onConfirm={() => onDelete(modal.contact)}
          onClose={onClose}
          testId="delete-modal"
          confirmTestId="confirm-delete"
        >
          <p className="mb-0">{deleteQuestion(modal.contact.email)}</p>
        </ConfirmModal>
      )}
      {modal?.kind === 'sendAll' && (
        <ConfirmModal
          title="Double-Opt-In an alle ausstehenden Kontakte senden"
          confirmLabel="Senden"
          busy={sendingAll}
          onConfirm={onSendAll}
          onClose={onClose}
          testId="send-all-modal"
          confirmTestId="confirm-send-all"
        >
          <p>
            Die Bestätigungs-E-Mail geht an <strong>{pendingCounts.count}</strong> von{' '}
            <strong>{pendingCounts.total}</strong> Kontakten, die ihre E-Mail-Adresse noch nicht bestätigt haben.
          </p>
          <p className="mb-0 small text-body-secondary">
            Gesperrte Kontakte erhalten keine E-Mail.
            {!production && ' Der Versand an alle ist nur in der Produktiv-Version möglich.'}
          </p>
        </ConfirmModal>
      )}
      {modal?.kind === 'sync' && isAdmin && <SyncManagerModal onClose={onClose} onSynced={onSynced} />}
      {modal?.kind === 'importPlanning' && <PlanningImportModal onClose={onClose} />}
    </>
  );
}
