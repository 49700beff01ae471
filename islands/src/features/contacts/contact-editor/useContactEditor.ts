// The contact editor's state and handlers in one hook: loading, focus, actions on contacts, errors and saving.
import { useReducer, useState } from 'react';
import { editorReducer, initialEditorState } from './editorState';
import { shownErrorsOf } from './shownErrors';
import { useContactActions } from './useContactActions';
import { useEmailChecks } from './useEmailChecks';
import { useFocusTarget } from './useFocusTarget';
import { useGroupLoader } from './useGroupLoader';
import { useSaveGroup } from './useSaveGroup';

export interface ContactEditorOptions {
  /** The customer number as the address has it (raw path text). */
  customerNumber: string;
  /** Admin or BU-Moderator: names, removing, blocking, criteria. */
  mayEditDetails: boolean;
  /** Where erasing the group's last contact leads. */
  contactsPath: string;
}

function parseNumber(raw: string): number | null {
  const text = String(raw ?? '').trim();
  return /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

export function useContactEditor({ customerNumber, mayEditDetails, contactsPath }: ContactEditorOptions) {
  const fallbackNumber = parseNumber(customerNumber);
  const [state, dispatch] = useReducer(editorReducer, undefined, initialEditorState);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const checks = useEmailChecks();
  const loader = useGroupLoader(customerNumber, fallbackNumber, dispatch);
  const focus = useFocusTarget();
  const actions = useContactActions({
    state,
    dispatch,
    checks,
    focus,
    announce: setAnnouncement,
    mayEditDetails,
    contactsPath,
  });
  const saving = useSaveGroup({
    state,
    dispatch,
    checks,
    focus,
    mayEditDetails,
    fallbackNumber,
    loadListNames: loader.loadListNames,
  });
  const errors = shownErrorsOf(state, checks.results, mayEditDetails, saving.submitted);

  return {
    state,
    dispatch,
    pickerOpen,
    setPickerOpen,
    announcement,
    formRef: focus.formRef,
    ...loader,
    ...actions,
    ...saving,
    ...errors,
  };
}
