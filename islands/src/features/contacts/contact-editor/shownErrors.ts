// Which of the editor's problems show, and where: at the company, the criteria or a contact's fields.
import type { EditorState, FieldName } from './editorState';
import type { EmailCheck } from './types';
import { fieldKey, rowsNeedingCheck, validateEditor } from './validation';
import type { EditorError } from './validation';

export interface ShownErrors {
  companyError: string | null;
  listsError: string | null;
  /** The message at each field of the row (null: none). */
  rowErrors: (rowKey: string) => Partial<Record<FieldName, string | null>>;
  /** The server is checking the row's email. */
  isChecking: (rowKey: string) => boolean;
}

// Clashes (an email twice, or another customer's) show as they arise; missing or malformed
// input only after a save attempt, and from then on as it is fixed. Nothing appears on blur:
// a message showing up then would move the save button away from under a click.
export function shownErrorsOf(
  state: EditorState,
  emailChecks: Readonly<Record<string, EmailCheck>>,
  criteriaRequired: boolean,
  submitted: boolean,
): ShownErrors {
  const errors = validateEditor(state, { emailChecks, criteriaRequired });
  const shownErrors = new Map<string, EditorError>();
  let companyError: string | null = null;
  let listsError: string | null = null;
  for (const error of errors) {
    const { target } = error;
    if (target.rowKey !== null) {
      const key = fieldKey(target.rowKey, target.field);
      if (!shownErrors.has(key) && (error.conflict || submitted)) shownErrors.set(key, error);
    } else if (target.field === 'company' && submitted) {
      companyError ??= error.message;
    } else if (target.field === 'lists' && submitted) {
      listsError ??= error.message;
    }
  }
  const checkedRows = new Map(rowsNeedingCheck(state).map((row) => [row.rowKey, row.email]));

  function rowErrors(rowKey: string): Partial<Record<FieldName, string | null>> {
    const result: Partial<Record<FieldName, string | null>> = {};
    for (const field of ['salutation', 'firstname', 'lastname', 'email'] as const) {
      result[field] = shownErrors.get(fieldKey(rowKey, field))?.message ?? null;
    }
    return result;
  }

  function isChecking(rowKey: string): boolean {
    const email = checkedRows.get(rowKey);
    return email !== undefined && emailChecks[email]?.state === 'checking';
  }

  return { companyError, listsError, rowErrors, isChecking };
}
