// A yes/no question as a modal; the confirm button shows a spinner while `busy`.
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { Modal } from './Modal';

export interface ConfirmModalProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  danger?: boolean;
  testId?: string;
  confirmTestId?: string;
}

export function ConfirmModal({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  busy = false,
  danger = false,
  testId,
  confirmTestId,
}: ConfirmModalProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title={title}
      onClose={onClose}
      testId={testId}
      closeDisabled={busy}
      initialFocusRef={cancelRef}
      footer={
        <>
          <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Abbrechen
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            onClick={onConfirm}
            disabled={busy}
            data-testid={confirmTestId}
          >
            {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
