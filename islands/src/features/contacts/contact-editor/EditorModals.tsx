// The contact editor's modals: the criteria picker and the questions before creating, erasing and deleting contacts.
import { ConfirmModal } from '../../../components/ConfirmModal';
import { CriteriaPicker } from './CriteriaPicker';
import type { ExistingRow, NewRow } from './editorState';
import { createQuestion, deleteQuestion, ERASE_LABEL, ERASURE_REMOVES } from './messages';
import type { Contact, ListRef, ProviderRef } from './types';

export interface EditorModalsProps {
  pickerOpen: boolean;
  providers: readonly ProviderRef[];
  /** The chosen list ids. */
  lists: readonly number[];
  /** The criteria the group had when loaded (what a reset goes back to). */
  originalLists: readonly number[];
  /** The lists known by name, by id. */
  listNames: Readonly<Record<number, ListRef>>;
  /** Admin: the picker's reset. */
  isAdmin: boolean;
  onApplyCriteria: (lists: number[], loaded: ListRef[]) => void;
  onClosePicker: () => void;
  /** The question open before saving (null: none). */
  confirm: 'create' | 'delete' | null;
  saving: boolean;
  fresh: readonly NewRow[];
  removed: readonly ExistingRow[];
  onConfirmCreate: () => void;
  onConfirmDelete: () => void;
  onCloseConfirm: () => void;
  /** The contact to be erased (null: no question). */
  erasing: Contact | null;
  erasureBusy: boolean;
  onConfirmErase: () => void;
  onCloseErase: () => void;
}

export function EditorModals(props: EditorModalsProps) {
  const { pickerOpen, confirm, saving, fresh, removed, onCloseConfirm, erasing } = props;
  return (
    <>
      {pickerOpen && (
        <CriteriaPicker
          providers={props.providers}
          chosen={props.lists}
          original={props.originalLists}
          known={Object.values(props.listNames)}
          mayReset={props.isAdmin}
          onApply={props.onApplyCriteria}
          onClose={props.onClosePicker}
        />
      )}
      {confirm === 'create' && (
        <ConfirmModal
          key="create"
          title="Neue Kontakte anlegen"
          confirmLabel="Anlegen"
          busy={saving}
          onConfirm={props.onConfirmCreate}
          onClose={onCloseConfirm}
          testId="confirm-create-modal"
          confirmTestId="confirm-create"
        >
          <p>{createQuestion(fresh.length)}</p>
          <ul className="mb-0">
            {fresh.map((row) => (
              <li key={row.key} className="text-break">
                {row.fields.email.trim()}
              </li>
            ))}
          </ul>
        </ConfirmModal>
      )}
      {erasing !== null && (
        <ConfirmModal
          key="erase"
          title={ERASE_LABEL}
          confirmLabel="Endgültig löschen"
          danger
          busy={props.erasureBusy}
          onConfirm={props.onConfirmErase}
          onClose={props.onCloseErase}
          testId="confirm-erase-modal"
          confirmTestId="confirm-erase"
        >
          <p>
            <strong className="text-break">{erasing.email}</strong> wird endgültig gelöscht. Entfernt werden:
          </p>
          <ul>
            {ERASURE_REMOVES.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p className="mb-0">Das kann nicht rückgängig gemacht werden.</p>
        </ConfirmModal>
      )}
      {confirm === 'delete' && (
        <ConfirmModal
          key="delete"
          title="Kontakte löschen"
          confirmLabel="Löschen"
          danger
          busy={saving}
          onConfirm={props.onConfirmDelete}
          onClose={onCloseConfirm}
          testId="confirm-delete-modal"
          confirmTestId="confirm-delete"
        >
          <p>{deleteQuestion(removed.length)}</p>
          <ul className="mb-0">
            {removed.map((row) => (
              <li key={row.key} className="text-break">
                {row.contact.email}
              </li>
            ))}
          </ul>
        </ConfirmModal>
      )}
    </>
  );
}
