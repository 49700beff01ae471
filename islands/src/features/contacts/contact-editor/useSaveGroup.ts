// Saving in the contact editor: check, ask before creating or deleting contacts, then one PUT of the whole group.
import { useState } from 'react';
import type { Dispatch, FormEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { saveGroup } from './api';
import { toGroupInput } from './editorState';
import type { EditorAction, EditorState } from './editorState';
import { CREATED_MESSAGE, UPDATED_MESSAGE } from './messages';
import type { Contact } from './types';
import type { EmailChecks } from './useEmailChecks';
import type { FocusControl } from './useFocusTarget';
import { rowsNeedingCheck, validateEditor } from './validation';
import type { EditorError } from './validation';

const LOGIN_CODES: ReadonlySet<string> = new Set(['not_logged_in', 'unauthorized_login']);

export interface SaveGroupInput {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  checks: EmailChecks;
  focus: FocusControl;
  mayEditDetails: boolean;
  /** The customer number of the address, for a group that has none yet. */
  fallbackNumber: number | null;
  /** Loads the names of the saved group's lists. */
  loadListNames: (contacts: readonly Contact[]) => void;
}

/** A failed save: the server's German message (spec §8); network failures are only logged. */
function toastSaveError(error: unknown): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (!isApiError(error) || error.status === 0) {
    console.error('[contact-editor] save failed', error);
    return;
  }
  if (error.status === 401 || (error.code !== null && LOGIN_CODES.has(error.code))) return;
  toast.error(error.message);
}

export function useSaveGroup({
  state,
  dispatch,
  checks,
  focus: { focusNow },
  mayEditDetails,
  fallbackNumber,
  loadListNames,
}: SaveGroupInput) {
  const [saving, setSaving] = useState(false);
  const [checkingBeforeSave, setCheckingBeforeSave] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [confirm, setConfirm] = useState<'create' | 'delete' | null>(null);

  function focusError(error: EditorError) {
    const { target } = error;
    if (target.rowKey !== null) focusNow({ rowKey: target.rowKey, field: target.field });
    else if (target.field === 'company') focusNow({ selector: '[data-testid="company-input"]' });
    else if (target.field === 'lists') focusNow({ selector: '[data-testid="open-criteria"]' });
    else focusNow({ selector: '[data-testid="add-contact"]' });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || checkingBeforeSave || !state.loaded) return;
    setSubmitted(true);
    // Emails whose debounced check has not answered yet are checked now.
    const emails = rowsNeedingCheck(state).map((row) => row.email);
    let results = checks.results;
    if (emails.some((email) => results[email]?.state !== 'done')) {
      setCheckingBeforeSave(true);
      try {
        results = await checks.checkNow(emails);
      } finally {
        setCheckingBeforeSave(false);
      }
    }
    const first = validateEditor(state, { emailChecks: results, criteriaRequired: mayEditDetails })[0];
    if (first) {
      toast.error(first.message, first.detail);
      focusError(first);
      return;
    }
    if (state.fresh.length > 0) setConfirm('create');
    else if (state.removed.length > 0) setConfirm('delete');
    else void save();
  }

  async function save() {
    const number = state.customerNumber ?? fallbackNumber;
    if (number === null || saving) return;
    const creating = state.creating;
    setSaving(true);
    try {
      const group = await saveGroup(number, toGroupInput(state, number));
      dispatch({ type: 'load', group, customerNumber: number });
      checks.reset();
      setSubmitted(false);
      loadListNames(group.content ?? []);
      toast.success(creating ? CREATED_MESSAGE : UPDATED_MESSAGE);
    } catch (error) {
      toastSaveError(error);
    } finally {
      setSaving(false);
      setConfirm(null);
    }
  }

  /** "Anlegen" confirmed: next the question about deleting, if contacts go. */
  function onConfirmCreate() {
    if (state.removed.length > 0) setConfirm('delete');
    else void save();
  }

  return {
    saving,
    busy: saving || checkingBeforeSave,
    submitted,
    confirm,
    closeConfirm: () => setConfirm(null),
    onSubmit,
    save,
    onConfirmCreate,
  };
}
