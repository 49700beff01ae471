// Client checks of the contact editor (spec §5 "Contact create", "Contact edit") with the
// server's German messages. validateEditor lists every problem in the order of the page
// (company, active contacts, new contacts, then the criteria); the first one is the toast,
// the field ones are shown at their fields.
import { emailChanged, isChanged, normalizeEmail } from './editorState';
import type { EditorState, ExistingRow, FieldName, NewRow } from './editorState';
import {
  COMPANY_REQUIRED,
  CONTACT_REQUIRED,
  CRITERIA_REQUIRED,
  DUPLICATE_EMAIL,
  EMAIL_INVALID,
  emailTakenMessage,
  FIRSTNAME_REQUIRED,
  invisibleMessage,
  LASTNAME_REQUIRED,
  SALUTATION_REQUIRED,
  tooLongMessage,
} from './messages';
import type { ContactFields, EmailCheck } from './types';

export const NAME_MAX = 100;

/** Control, format and line/paragraph-separator characters (the server's `is_invisible`). */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const EMAIL_FORBIDDEN = /[\s<>,;"\\]/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}-]+$/u;

/** A name of 1 to 100 characters (company, first and last name), as the server checks it. */
export function validateName(value: string, field: string, missing: string): string | null {
  const clean = value.trim().normalize('NFC');
  if (INVISIBLE.test(clean)) return invisibleMessage(field);
  if (clean === '') return missing;
  if ([...clean].length > NAME_MAX) return tooLongMessage(field);
  return null;
}

export function validateCompany(value: string): string | null {
  return validateName(value, 'Die Firma', COMPANY_REQUIRED);
}

/** One `@`, a local part and a domain with a dot, no spaces: the server's rule. */
export function isValidEmail(value: string): boolean {
  const email = normalizeEmail(value);
  if (email === '' || email.length > 254 || EMAIL_FORBIDDEN.test(email) || INVISIBLE.test(email)) return false;
  const at = email.indexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local === '' || local.length > 64 || domain.includes('@')) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  return (
    labels.length >= 2 &&
    labels.every(
      (label) => label !== '' && label.length <= 63 && !label.startsWith('-') && !label.endsWith('-') && DOMAIN_LABEL.test(label),
    )
  );
}

/** The problem of one field of a contact, or null. */
export function validateField(fields: ContactFields, field: FieldName): string | null {
  switch (field) {
    case 'salutation':
      return fields.salutation === null || ![0, 1, 2, 3, 4].includes(fields.salutation) ? SALUTATION_REQUIRED : null;
    case 'firstname':
      return validateName(fields.firstname, 'Der Vorname', FIRSTNAME_REQUIRED);
    case 'lastname':
      return validateName(fields.lastname, 'Der Nachname', LASTNAME_REQUIRED);
    case 'email':
      return isValidEmail(fields.email) ? null : EMAIL_INVALID;
  }
}

const FIELDS: readonly FieldName[] = ['salutation', 'firstname', 'lastname', 'email'];

export type ErrorTarget = { rowKey: string; field: FieldName } | { rowKey: null; field: 'company' | 'lists' | null };

export interface EditorError {
  target: ErrorTarget;
  message: string;
  /** Which contact it is about (the toast's second line), when it is about one. */
  detail: string | null;
  /** A clash (duplicate or taken email): shown at once, not only after a save attempt. */
  conflict: boolean;
}

/** A field of a row, as one key: `{rowKey}:{field}`. */
export function fieldKey(rowKey: string, field: FieldName): string {
  return `${rowKey}:${field}`;
}

export interface ValidationContext {
  /** Results of the server's email check, by normalised email. */
  emailChecks: Readonly<Record<string, EmailCheck>>;
  /** Admin or BU-Moderator; BU-DOI may save without a criterion. */
  criteriaRequired: boolean;
}

/** The rows whose email the server must check: every new row and every changed email. */
export function rowsNeedingCheck(state: EditorState): { rowKey: string; email: string; id: number | null }[] {
  const rows: { rowKey: string; email: string; id: number | null }[] = [];
  for (const row of state.active) {
    if (emailChanged(row) && isValidEmail(row.fields.email)) {
      rows.push({ rowKey: row.key, email: normalizeEmail(row.fields.email), id: row.contact.id });
    }
  }
  for (const row of state.fresh) {
    if (isValidEmail(row.fields.email)) rows.push({ rowKey: row.key, email: normalizeEmail(row.fields.email), id: null });
  }
  return rows;
}

/** The other customer number an email is registered under, or null. */
export function takenUnder(
  check: EmailCheck | undefined,
  customerNumber: number | null,
  ownId: number | null,
): number | null {
  if (check?.state !== 'done' || check.customerNumber === null || check.id === ownId) return null;
  return check.customerNumber === customerNumber ? null : check.customerNumber;
}

function describeNew(row: NewRow, index: number): string {
  const email = row.fields.email.trim();
  return email === '' ? `Neuer Kontakt ${index + 1}` : `Neuer Kontakt: ${email}`;
}

function describeExisting(row: ExistingRow): string {
  return `Kontakt: ${row.contact.email}`;
}

/** Every problem of the editor, in the order of the page. */
export function validateEditor(state: EditorState, context: ValidationContext): EditorError[] {
  const errors: EditorError[] = [];
  if (state.companyEditable) {
    const company = validateCompany(state.companyName);
    if (company) errors.push({ target: { rowKey: null, field: 'company' }, message: company, detail: null, conflict: false });
  }

  const seen = new Set<string>();
  const needsCheck = new Map(rowsNeedingCheck(state).map((r) => [r.rowKey, r]));

  function checkRow(rowKey: string, fields: ContactFields, inputRules: boolean, detail: string) {
    if (inputRules) {
      for (const field of FIELDS) {
        const message = validateField(fields, field);
        if (message) errors.push({ target: { rowKey, field }, message, detail, conflict: false });
      }
    }
    const email = normalizeEmail(fields.email);
    if (email === '') return;
    if (seen.has(email)) {
      errors.push({ target: { rowKey, field: 'email' }, message: DUPLICATE_EMAIL, detail, conflict: true });
      return;
    }
    seen.add(email);
    const check = needsCheck.get(rowKey);
    if (check) {
      const other = takenUnder(context.emailChecks[check.email], state.customerNumber, check.id);
      if (other !== null) {
        errors.push({
          target: { rowKey, field: 'email' },
          message: emailTakenMessage(check.email, other),
          detail,
          conflict: true,
        });
      }
    }
  }

  // Contacts left as they were are not sent: only changed ones must pass the input rules.
  for (const row of state.active) checkRow(row.key, row.fields, isChanged(row), describeExisting(row));
  state.fresh.forEach((row, index) => checkRow(row.key, row.fields, true, describeNew(row, index)));

  if (state.creating && state.fresh.length === 0) {
    errors.push({ target: { rowKey: null, field: null }, message: CONTACT_REQUIRED, detail: null, conflict: false });
  }
  // Removing every contact needs no criterion: nobody would get it.
  const keepsContacts = state.active.length + state.fresh.length > 0;
  if (context.criteriaRequired && keepsContacts && state.lists.length === 0) {
    errors.push({ target: { rowKey: null, field: 'lists' }, message: CRITERIA_REQUIRED, detail: null, conflict: false });
  }
  return errors;
}
