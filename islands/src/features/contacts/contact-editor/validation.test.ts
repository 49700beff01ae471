import { describe, expect, it } from 'vitest';
import { editorReducer, initialEditorState } from './editorState';
import type { EditorAction, EditorState } from './editorState';
import { contact, group } from './fixtures';
import {
  COMPANY_REQUIRED,
  CONTACT_REQUIRED,
  CRITERIA_REQUIRED,
  DUPLICATE_EMAIL,
  EMAIL_INVALID,
  FIRSTNAME_REQUIRED,
  LASTNAME_REQUIRED,
  SALUTATION_REQUIRED,
} from './messages';
import type { EmailCheck } from './types';
import { isValidEmail, rowsNeedingCheck, takenUnder, validateEditor, validateName } from './validation';

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, state);
}

const base = run(initialEditorState(), {
  type: 'load',
  group: group([contact(1, { email: 'anna@example.de', listsIds: [4] }), contact(2, { email: 'ben@example.de' })]),
  customerNumber: 100001,
});

function newRow(state: EditorState, fields: { salutation?: string; firstname?: string; lastname?: string; email?: string }) {
  const key = `n${state.nextKey}`;
  return run(
    state,
    { type: 'addNew' },
    ...Object.entries(fields).map(([field, value]) => ({
      type: 'editNew' as const,
      key,
      field: field as 'salutation' | 'firstname' | 'lastname' | 'email',
      value,
    })),
  );
}

const valid = { salutation: '3', firstname: 'Erika', lastname: 'Muster', email: 'erika@example.de' };

function messages(state: EditorState, checks: Record<string, EmailCheck> = {}, criteriaRequired = true) {
  return validateEditor(state, { emailChecks: checks, criteriaRequired }).map((e) => e.message);
}

describe('contact editor validation: fields', () => {
  it('checks emails like the server', () => {
    expect(isValidEmail('erika@example.de')).toBe(true);
    expect(isValidEmail(' Erika@Example.DE ')).toBe(true);
    expect(isValidEmail('müller@bäckerei.de')).toBe(true);
    for (const bad of ['', 'erika', 'erika@', '@example.de', 'erika@example', 'er ika@example.de', 'a..b@example.de', '.a@example.de', 'a@-x.de', 'a@b@c.de', 'a;b@example.de']) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });

  it('checks names: required, at most 100 characters, nothing invisible', () => {
    expect(validateName('  ', 'Der Vorname', FIRSTNAME_REQUIRED)).toBe(FIRSTNAME_REQUIRED);
    expect(validateName('x'.repeat(100), 'Der Vorname', FIRSTNAME_REQUIRED)).toBeNull();
    expect(validateName('x'.repeat(101), 'Der Vorname', FIRSTNAME_REQUIRED)).toBe(
      'Der Vorname darf höchstens 100 Zeichen lang sein.',
    );
    expect(validateName('Er\u200bika', 'Der Vorname', FIRSTNAME_REQUIRED)).toBe(
      'Der Vorname darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten.',
    );
  });

  it('needs salutation, names and a valid email of a new contact, in the order of the fields', () => {
    const state = newRow(base, { email: 'kaputt' });
    expect(messages(state)).toEqual([SALUTATION_REQUIRED, FIRSTNAME_REQUIRED, LASTNAME_REQUIRED, EMAIL_INVALID]);
    // 0 ("keine") is a salutation.
    expect(messages(newRow(base, { ...valid, salutation: '0' }))).toEqual([]);
  });

  it('checks the fields of an existing contact only once it was changed', () => {
    const broken = run(initialEditorState(), {
      type: 'load',
      group: group([contact(1, { firstname: '', listsIds: [1] })]),
      customerNumber: 100001,
    });
    expect(messages(broken)).toEqual([]);
    const changed = run(broken, { type: 'editExisting', key: 'c1', field: 'lastname', value: 'Neu' });
    expect(messages(changed)).toEqual([FIRSTNAME_REQUIRED]);
  });

  it('needs a company when the group is created, and at least one contact', () => {
    const empty = run(initialEditorState(), {
      type: 'load',
      group: { content: [], imports: { company: null, contacts: [], message: null } },
      customerNumber: 400001,
    });
    expect(messages(empty)).toEqual([COMPANY_REQUIRED, CONTACT_REQUIRED]);
    expect(messages(newRow(empty, valid))).toEqual([COMPANY_REQUIRED, CRITERIA_REQUIRED]);
    const typed = newRow(run(empty, { type: 'setCompany', value: 'Neu GmbH' }, { type: 'setLists', lists: [1] }), valid);
    expect(messages(typed)).toEqual([]);
  });
});

describe('contact editor validation: emails and criteria', () => {
  it('finds an email twice among existing and new contacts', () => {
    const state = newRow(newRow(base, { ...valid, email: ' Anna@example.de' }), valid);
    const errors = validateEditor(state, { emailChecks: {}, criteriaRequired: true });
    expect(errors.map((e) => e.message)).toEqual([DUPLICATE_EMAIL]);
    expect(errors[0]).toMatchObject({ target: { rowKey: 'n1', field: 'email' }, conflict: true });

    const twiceNew = newRow(newRow(base, valid), valid);
    expect(messages(twiceNew)).toEqual([DUPLICATE_EMAIL]);
    expect(validateEditor(twiceNew, { emailChecks: {}, criteriaRequired: true }).map((e) => e.target)).toEqual([
      { rowKey: 'n2', field: 'email' },
    ]);
  });

  it('does not count a contact marked for removal', () => {
    const state = newRow(run(base, { type: 'remove', key: 'c1' }), { ...valid, email: 'anna@example.de' });
    expect(messages(state)).toEqual([]);
  });

  it('names the other customer number of an email the server knows', () => {
    const state = newRow(base, valid);
    expect(rowsNeedingCheck(state)).toEqual([{ rowKey: 'n1', email: 'erika@example.de', id: null }]);
    const taken: Record<string, EmailCheck> = { 'erika@example.de': { state: 'done', id: 9, customerNumber: 123 } };
    expect(messages(state, taken)).toEqual([
      'Die E-Mail erika@example.de ist bereits unter der Kundennummer 123 registriert.',
    ]);
    // Free, same customer, still checking or failed: nothing to say.
    for (const check of [
      { state: 'done', id: null, customerNumber: null },
      { state: 'done', id: 9, customerNumber: 100001 },
      { state: 'checking' },
      { state: 'failed' },
    ] as EmailCheck[]) {
      expect(messages(state, { 'erika@example.de': check })).toEqual([]);
    }
  });

  it('checks a changed email of an existing contact, not an unchanged one', () => {
    expect(rowsNeedingCheck(base)).toEqual([]);
    const state = run(base, { type: 'editExisting', key: 'c2', field: 'email', value: 'Ben@Neu.de' });
    expect(rowsNeedingCheck(state)).toEqual([{ rowKey: 'c2', email: 'ben@neu.de', id: 2 }]);
    expect(takenUnder({ state: 'done', id: 2, customerNumber: 5 }, 100001, 2)).toBeNull();
    expect(messages(state, { 'ben@neu.de': { state: 'done', id: 7, customerNumber: 5 } })).toEqual([
      'Die E-Mail ben@neu.de ist bereits unter der Kundennummer 5 registriert.',
    ]);
  });

  it('needs a criterion, except for BU-DOI', () => {
    const none = run(base, { type: 'setLists', lists: [] });
    expect(messages(none)).toEqual([CRITERIA_REQUIRED]);
    expect(messages(none, {}, false)).toEqual([]);
    // Removing every contact of the group needs none.
    expect(messages(run(none, { type: 'remove', key: 'c1' }, { type: 'remove', key: 'c2' }))).toEqual([]);
  });
});
