// Stand-in modals for the More menu's entries that later versions fill: the sync manager
// (admin only) and the two imports (the contact editor brings them).
import { Modal } from '../../components/Modal';

export type PlaceholderKind = 'sync' | 'importPlanning' | 'importBrevo';

export const PLACEHOLDERS: Record<PlaceholderKind, { title: string; text: string }> = {
  sync: {
    title: 'Sync-Manager',
    text: 'Der Abgleich der Kontakte aus Brevo folgt in einer späteren Version des Portals.',
  },
  importPlanning: {
    title: 'Import aus der Planung',
    text: 'Der Import von Kontakten aus der Planung folgt in einer späteren Version des Portals.',
  },
  importBrevo: {
    title: 'Import aus Brevo',
    text: 'Der Import von Kontakten aus Brevo folgt in einer späteren Version des Portals.',
  },
};

export function PlaceholderModal({ kind, onClose }: { kind: PlaceholderKind; onClose: () => void }) {
  const { title, text } = PLACEHOLDERS[kind];
  return (
    <Modal
      title={title}
      onClose={onClose}
      testId="placeholder-modal"
      footer={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Schließen
        </button>
      }
    >
      <p className="mb-0 d-flex align-items-center gap-2">
        <i className="bi bi-cone-striped fs-4 text-warning-emphasis" aria-hidden="true" />
        {text}
      </p>
    </Modal>
  );
}
