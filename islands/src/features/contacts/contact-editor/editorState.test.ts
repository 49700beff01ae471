import { describe, expect, it } from 'vitest';
import { editorReducer, initialEditorState, isChanged, listsOfContacts, toGroupInput } from './editorState';
import type { EditorAction, EditorState } from './editorState';
import { candidate, contact, group } from './fixtures';

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, state);
}

function loaded(...args: Parameters<typeof group>): EditorState {
  return run(initialEditorState(), { type: 'load', group: group(...args), customerNumber: 100001 });
}

describe('contact editor state: loading', () => {
  it('starts unloaded (the placeholder is shown)', () => {
    const state = initialEditorState();
    expect(state.loaded).toBe(false);
    expect(state.customerNumber).toBeNull();
  });

  it('takes the contacts, the company and the union of their lists', () => {
    const state = loaded([contact(1, { listsIds: [3, 1] }), contact(2, { listsIds: [2, 3] })], {
      message: 'Kein Planungssystem angebunden.',
    });
    expect(state.loaded).toBe(true);
    expect(state.customerNumber).toBe(100001);
    expect(state.companyName).toBe('Müller & Söhne Vertriebs GmbH');
    expect(state.companyEditable).toBe(false);
    expect(state.creating).toBe(false);
    expect(state.active.map((r) => r.key)).toEqual(['c1', 'c2']);
    expect(state.lists).toEqual([1, 2, 3]);
    expect(state.originalLists).toEqual([1, 2, 3]);
    expect(state.message).toBe('Kein Planungssystem angebunden.');
  });

  it('lets the company be typed in when there is neither a contact nor a company', () => {
    const state = run(initialEditorState(), {
      type: 'load',
      group: { content: [], imports: { company: null, contacts: [candidate()], message: null } },
      customerNumber: 400001,
    });
    expect(state.creating).toBe(true);
    expect(state.companyEditable).toBe(true);
    expect(state.customerNumber).toBe(400001);
    // The planning system's name as a start.
    expect(state.companyName).toBe('Planungs GmbH');
    expect(run(state, { type: 'setCompany', value: 'Neu GmbH' }).companyName).toBe('Neu GmbH');
  });

  it('keeps a known company read-only, also for a group without contacts', () => {
    const state = run(initialEditorState(), {
      type: 'load',
      group: { content: [], imports: { company: { customerNumber: 7, companyName: 'Alt KG' }, contacts: [], message: null } },
      customerNumber: 7,
    });
    expect(state.creating).toBe(true);
    expect(state.companyEditable).toBe(false);
    expect(run(state, { type: 'setCompany', value: 'X' }).companyName).toBe('Alt KG');
  });

  it('copes with an answer without imports', () => {
    const state = run(initialEditorState(), { type: 'load', group: { content: [contact(1)], imports: null }, customerNumber: 1 });
    expect(state.candidates).toEqual([]);
    expect(state.message).toBeNull();
    expect(listsOfContacts([])).toEqual([]);
  });
});

describe('contact editor state: moving contacts', () => {
  it('moves an active contact to the removed ones and back to its place', () => {
    let state = loaded([contact(1), contact(2), contact(3)]);
    state = run(state, { type: 'remove', key: 'c2' });
    expect(state.active.map((r) => r.key)).toEqual(['c1', 'c3']);
    expect(state.removed.map((r) => r.key)).toEqual(['c2']);
    state = run(state, { type: 'restore', key: 'c2' });
    expect(state.active.map((r) => r.key)).toEqual(['c1', 'c2', 'c3']);
    expect(state.removed).toEqual([]);
  });

  it('adds empty new rows with their own keys and takes them out again', () => {
    let state = loaded([contact(1)]);
    state = run(state, { type: 'addNew' }, { type: 'addNew' });
    expect(state.fresh.map((r) => r.key)).toEqual(['n1', 'n2']);
    expect(state.fresh[0]?.fields).toEqual({ salutation: null, firstname: '', lastname: '', email: '' });
    state = run(state, { type: 'editNew', key: 'n2', field: 'salutation', value: '3' });
    expect(state.fresh[1]?.fields.salutation).toBe(3);
    state = run(state, { type: 'editNew', key: 'n2', field: 'salutation', value: '' });
    expect(state.fresh[1]?.fields.salutation).toBeNull();
    state = run(state, { type: 'discardNew', key: 'n1' });
    expect(state.fresh.map((r) => r.key)).toEqual(['n2']);
  });

  it('turns a candidate into a new contact with one action, and back when that is removed', () => {
    let state = loaded([contact(1)], { contacts: [candidate(), candidate({ firstname: 'Petra', email: 'petra@x.de' })] });
    state = run(state, { type: 'takeCandidate', key: 'p1' });
    expect(state.candidates.map((c) => c.taken)).toEqual([false, true]);
    expect(state.fresh).toEqual([
      { key: 'n1', candidateKey: 'p1', fields: { salutation: 2, firstname: 'Petra', lastname: 'Plan', email: 'petra@x.de' } },
    ]);
    // Taken once only.
    expect(run(state, { type: 'takeCandidate', key: 'p1' })).toBe(state);
    state = run(state, { type: 'discardNew', key: 'n1' });
    expect(state.candidates.map((c) => c.taken)).toEqual([false, false]);
    expect(state.fresh).toEqual([]);
  });

  it('does not take a candidate whose email another customer uses', () => {
    const state = loaded([contact(1)], { contacts: [candidate({ existingCustomerNumber: 456 })] });
    expect(run(state, { type: 'takeCandidate', key: 'p0' })).toBe(state);
  });

  it('sets, dedupes and resets the criteria', () => {
    let state = loaded([contact(1, { listsIds: [5] })]);
    state = run(state, { type: 'setLists', lists: [9, 7, 9] });
    expect(state.lists).toEqual([7, 9]);
    state = run(state, { type: 'resetLists' });
    expect(state.lists).toEqual([5]);
  });

  it('takes a blocked or unblocked contact from the server without losing edits', () => {
    let state = loaded([contact(1)]);
    state = run(state, { type: 'editExisting', key: 'c1', field: 'firstname', value: 'Moritz' });
    state = run(state, { type: 'contactUpdated', contact: contact(1, { emailBlacklisted: true }) });
    expect(state.active[0]?.contact.emailBlacklisted).toBe(true);
    expect(state.active[0]?.fields.firstname).toBe('Moritz');
  });
});

describe('contact editor state: the PUT body', () => {
  it('names changed, removed and new contacts, and the chosen candidates apart', () => {
    let state = loaded([contact(1, { listsIds: [1, 2] }), contact(2), contact(3)], { contacts: [candidate()] });
    state = run(
      state,
      { type: 'editExisting', key: 'c1', field: 'lastname', value: '  Neumann ' },
      { type: 'remove', key: 'c3' },
      { type: 'addNew' },
      { type: 'editNew', key: 'n1', field: 'salutation', value: '3' },
      { type: 'editNew', key: 'n1', field: 'firstname', value: 'Erika' },
      { type: 'editNew', key: 'n1', field: 'lastname', value: 'Muster' },
      { type: 'editNew', key: 'n1', field: 'email', value: ' erika@example.de ' },
      { type: 'takeCandidate', key: 'p0' },
      { type: 'setLists', lists: [2, 4] },
    );
    expect(toGroupInput(state, 100001)).toEqual({
      customerNumber: 100001,
      companyName: 'Müller & Söhne Vertriebs GmbH',
      listsIds: [2, 4],
      uncheckedListsIds: [1],
      contacts: [
        { id: 1, email: 'kontakt1@example.de', salutation: 2, firstname: 'Max', lastname: 'Neumann' },
        { id: 3, remove: true },
        { email: 'erika@example.de', salutation: 3, firstname: 'Erika', lastname: 'Muster' },
      ],
      alphaPlanContacts: [{ email: 'paul.plan@planung.example', salutation: 2, firstname: 'Paul', lastname: 'Plan' }],
    });
  });

  it('does not count a change of case or spaces in an email as a change', () => {
    const state = run(loaded([contact(1)]), { type: 'editExisting', key: 'c1', field: 'email', value: ' Kontakt1@Example.de' });
    expect(state.active[0] && isChanged(state.active[0])).toBe(false);
    expect(toGroupInput(state, 100001).contacts).toEqual([]);
  });
});
