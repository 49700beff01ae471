// The contact editor's actions on contacts: editing, moving them between the sections, blocking and erasing.
import { useState } from 'react';
import type { Dispatch } from 'react';
import { isApiError } from '../../../lib/api';
import { toastWriteError } from '../../../lib/apiToasts';
import { toast } from '../../../lib/toast';
import { eraseContact, toggleBlacklist } from './api';
import { normalizeEmail } from './editorState';
import type { EditorAction, EditorState, ExistingRow, FieldName, NewRow } from './editorState';
import { blockUpdatedMessage } from './messages';
import type { Contact } from './types';
import type { FocusControl } from './useFocusTarget';
import type { EmailChecks } from './useEmailChecks';
import { isValidEmail } from './validation';

export interface ContactActionsInput {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  checks: EmailChecks;
  focus: FocusControl;
  /** Tells screen readers what happened (the live region). */
  announce: (text: string) => void;
  mayEditDetails: boolean;
  /** Where erasing the group's last contact leads. */
  contactsPath: string;
}

function fullName(fields: { firstname: string; lastname: string; email: string }): string {
  return `${fields.firstname} ${fields.lastname}`.trim() || fields.email;
}

export function useContactActions({
  state,
  dispatch,
  checks,
  focus: { focusLater, focusNow },
  announce,
  mayEditDetails,
  contactsPath,
}: ContactActionsInput) {
  const [blocking, setBlocking] = useState<ReadonlySet<number>>(() => new Set());
  const [erasing, setErasing] = useState<Contact | null>(null);
  const [erasureBusy, setErasureBusy] = useState(false);

  /** Starts (or stops) the row's debounced server check for its email. */
  function scheduleCheck(rowKey: string, value: string, unchangedEmail: string | null) {
    const email = normalizeEmail(value);
    checks.schedule(rowKey, isValidEmail(value) && email !== unchangedEmail ? email : null);
  }

  function onEditExisting(row: ExistingRow, field: FieldName, value: string) {
    dispatch({ type: 'editExisting', key: row.key, field, value });
    if (field === 'email') scheduleCheck(row.key, value, normalizeEmail(row.contact.email));
  }

  function onEditNew(row: NewRow, field: FieldName, value: string) {
    dispatch({ type: 'editNew', key: row.key, field, value });
    if (field === 'email') scheduleCheck(row.key, value, null);
  }

  function onRemove(row: ExistingRow) {
    checks.schedule(row.key, null);
    dispatch({ type: 'remove', key: row.key });
    focusLater({ rowKey: row.key, field: 'restore' });
    announce(`${row.contact.email} wird beim Speichern entfernt.`);
  }

  function onRestore(row: ExistingRow) {
    dispatch({ type: 'restore', key: row.key });
    focusLater({ rowKey: row.key, field: mayEditDetails ? 'remove' : 'email' });
    announce(`${row.contact.email} wiederhergestellt.`);
  }

  function onAddNew() {
    const key = `n${state.nextKey}`;
    dispatch({ type: 'addNew' });
    focusLater({ rowKey: key, field: 'salutation' });
  }

  function onDiscardNew(row: NewRow) {
    checks.schedule(row.key, null);
    dispatch({ type: 'discardNew', key: row.key });
    if (row.candidateKey !== null) {
      focusLater({ rowKey: row.candidateKey, field: 'take' });
      announce(`${fullName(row.fields)} ist wieder ein Importkandidat.`);
    } else {
      focusLater({ selector: '[data-testid="add-contact"]' });
      announce('Neuer Kontakt entfernt.');
    }
  }

  function onTakeCandidate(key: string) {
    const entry = state.candidates.find((c) => c.key === key);
    if (!entry) return;
    const rowKey = `n${state.nextKey}`;
    dispatch({ type: 'takeCandidate', key });
    scheduleCheck(rowKey, entry.candidate.email, null);
    focusLater({ rowKey, field: 'salutation' });
    announce(`${fullName(entry.candidate)} wird als neuer Kontakt angelegt.`);
  }

  async function onToggleBlock(row: ExistingRow) {
    const id = row.contact.id;
    if (blocking.has(id)) return;
    setBlocking((current) => new Set(current).add(id));
    try {
      const updated = await toggleBlacklist(id);
      dispatch({ type: 'contactUpdated', contact: updated });
      toast.success(blockUpdatedMessage(updated.email));
    } catch (error) {
      toastWriteError(error);
    } finally {
      setBlocking((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    }
  }

  /** Erases the contact in question for good; the last one of the group leads back to the list. */
  async function onErase() {
    if (erasing === null || erasureBusy) return;
    setErasureBusy(true);
    try {
      const report = await eraseContact(erasing.id);
      toast.success(report.message);
      const left = state.active.filter((row) => row.contact.id !== erasing.id).length + state.removed.length;
      dispatch({ type: 'contactErased', id: erasing.id });
      setErasing(null);
      if (left === 0 && state.fresh.length === 0) window.location.assign(contactsPath);
      else focusNow({ selector: '[data-testid="add-contact"]' });
    } catch (error) {
      // Brevo refused or was away: its German message says that nothing was erased.
      if (isApiError(error) && error.status === 502) toast.error(error.message);
      else toastWriteError(error);
    } finally {
      setErasureBusy(false);
    }
  }

  return {
    blocking,
    erasing,
    setErasing,
    erasureBusy,
    onEditExisting,
    onEditNew,
    onRemove,
    onRestore,
    onAddNew,
    onDiscardNew,
    onTakeCandidate,
    onToggleBlock,
    onErase,
  };
}
