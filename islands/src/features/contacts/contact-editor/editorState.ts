// State of the contact editor (spec §2 "Contact edit", §4 "Contact editing"): the group's
// contacts in three places (active, new, to be removed), the planning system's import
// candidates, and the chosen criteria. A reducer, so every change is one tested transition;
// the island only dispatches. toGroupInput turns the state into the PUT body of the contract.
import type {
  Contact,
  ContactFields,
  ContactInput,
  CustomerGroup,
  CustomerGroupInput,
  ImportCandidate,
} from './types';

export type FieldName = keyof ContactFields;

/** A contact the group has: what the server sent and the fields as edited. */
export interface ExistingRow {
  key: string;
  contact: Contact;
  fields: ContactFields;
  /** Place in the loaded order, so a restored contact goes back where it was. */
  order: number;
}

/** A contact to be created: typed in, or taken over from an import candidate. */
export interface NewRow {
  key: string;
  fields: ContactFields;
  /** The candidate it came from (sent as `alphaPlanContacts`), else null. */
  candidateKey: string | null;
}

export interface CandidateEntry {
  key: string;
  candidate: ImportCandidate;
  /** Taken over as a new contact (shown there instead). */
  taken: boolean;
}

export interface EditorState {
  loaded: boolean;
  /** The group's customer number once loaded; null shows the placeholder (spec §3). */
  customerNumber: number | null;
  companyName: string;
  /** No contact and no company yet: the company is typed in and the group is created. */
  companyEditable: boolean;
  /** The group has no contacts yet: saving creates it ("Anlegen"). */
  creating: boolean;
  active: ExistingRow[];
  removed: ExistingRow[];
  fresh: NewRow[];
  candidates: CandidateEntry[];
  /** The import's note, e.g. that no planning system is connected. */
  message: string | null;
  /** The chosen criteria (list ids). */
  lists: number[];
  /** The criteria the group had when it was loaded: the union of its contacts' lists. */
  originalLists: number[];
  nextKey: number;
}

export type EditorAction =
  /** The group as the server answered it (after GET or a successful PUT). */
  | { type: 'load'; group: CustomerGroup; customerNumber: number | null }
  | { type: 'setCompany'; value: string }
  /** `value` of the salutation is the select's value ('' for none chosen). */
  | { type: 'editExisting'; key: string; field: FieldName; value: string }
  | { type: 'remove'; key: string }
  | { type: 'restore'; key: string }
  | { type: 'addNew' }
  | { type: 'editNew'; key: string; field: FieldName; value: string }
  /** A new row taken out again; a candidate's goes back to the candidates. */
  | { type: 'discardNew'; key: string }
  | { type: 'takeCandidate'; key: string }
  | { type: 'setLists'; lists: number[] }
  /** Back to the criteria the group had when loaded (admin only). */
  | { type: 'resetLists' }
  /** A contact changed on the server meanwhile (blocked or unblocked). */
  | { type: 'contactUpdated'; contact: Contact }
  | { type: 'contactErased'; id: number };

export const EMPTY_FIELDS: ContactFields = { salutation: null, firstname: '', lastname: '', email: '' };

export function initialEditorState(): EditorState {
  return {
    loaded: false,
    customerNumber: null,
    companyName: '',
    companyEditable: false,
    creating: false,
    active: [],
    removed: [],
    fresh: [],
    candidates: [],
    message: null,
    lists: [],
    originalLists: [],
    nextKey: 1,
  };
}

export function fieldsOf(contact: Pick<Contact, 'salutation' | 'firstname' | 'lastname' | 'email'>): ContactFields {
  return {
    salutation: contact.salutation,
    firstname: contact.firstname,
    lastname: contact.lastname,
    email: contact.email,
  };
}

/** Emails compare trimmed and in lower case (as the server stores them). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The union of the contacts' lists, ascending. */
export function listsOfContacts(contacts: readonly Contact[]): number[] {
  const ids = new Set<number>();
  for (const contact of contacts) for (const id of contact.listsIds ?? []) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

function loadState(state: EditorState, group: CustomerGroup, fallbackNumber: number | null): EditorState {
  const content = group.content ?? [];
  const imports = group.imports ?? null;
  const company = imports?.company ?? null;
  const first = content[0];
  const knownCompany = company?.companyName ?? first?.companyName ?? '';
  const creating = content.length === 0;
  const companyEditable = creating && knownCompany.trim() === '';
  const candidates = imports?.contacts ?? [];
  const lists = listsOfContacts(content);
  return {
    loaded: true,
    customerNumber: company?.customerNumber ?? first?.customerNumber ?? fallbackNumber,
    // A new group's company: what the planning system calls it, for a start.
    companyName: companyEditable ? (candidates.find((c) => c.companyName)?.companyName ?? '') : knownCompany,
    companyEditable,
    creating,
    active: content.map((contact, order) => ({ key: `c${contact.id}`, contact, fields: fieldsOf(contact), order })),
    removed: [],
    fresh: [],
    candidates: candidates.map((candidate, index) => ({ key: `p${index}`, candidate, taken: false })),
    message: imports?.message ?? null,
    lists,
    originalLists: lists,
    nextKey: state.nextKey,
  };
}

function withField(fields: ContactFields, field: FieldName, value: string): ContactFields {
  if (field === 'salutation') return { ...fields, salutation: value === '' ? null : Number(value) };
  return { ...fields, [field]: value };
}

function byOrder(a: ExistingRow, b: ExistingRow): number {
  return a.order - b.order;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'load':
      return loadState(state, action.group, action.customerNumber);
    case 'setCompany':
      return state.companyEditable ? { ...state, companyName: action.value } : state;
    case 'editExisting':
      return {
        ...state,
        active: state.active.map((row) =>
          row.key === action.key ? { ...row, fields: withField(row.fields, action.field, action.value) } : row,
        ),
      };
    case 'remove': {
      const row = state.active.find((r) => r.key === action.key);
      if (!row) return state;
      return {
        ...state,
        active: state.active.filter((r) => r.key !== action.key),
        removed: [...state.removed, row],
      };
    }
    case 'restore': {
      const row = state.removed.find((r) => r.key === action.key);
      if (!row) return state;
      return {
        ...state,
        active: [...state.active, row].sort(byOrder),
        removed: state.removed.filter((r) => r.key !== action.key),
      };
    }
    case 'addNew':
      return {
        ...state,
        fresh: [...state.fresh, { key: `n${state.nextKey}`, fields: EMPTY_FIELDS, candidateKey: null }],
        nextKey: state.nextKey + 1,
      };
    case 'editNew':
      return {
        ...state,
        fresh: state.fresh.map((row) =>
          row.key === action.key ? { ...row, fields: withField(row.fields, action.field, action.value) } : row,
        ),
      };
    case 'discardNew': {
      const row = state.fresh.find((r) => r.key === action.key);
      if (!row) return state;
      return {
        ...state,
        fresh: state.fresh.filter((r) => r.key !== action.key),
        candidates:
          row.candidateKey === null
            ? state.candidates
            : state.candidates.map((c) => (c.key === row.candidateKey ? { ...c, taken: false } : c)),
      };
    }
    case 'takeCandidate': {
      const entry = state.candidates.find((c) => c.key === action.key);
      if (!entry || entry.taken || entry.candidate.existingCustomerNumber !== null) return state;
      return {
        ...state,
        fresh: [...state.fresh, { key: `n${state.nextKey}`, fields: fieldsOf(entry.candidate), candidateKey: entry.key }],
        candidates: state.candidates.map((c) => (c.key === action.key ? { ...c, taken: true } : c)),
        nextKey: state.nextKey + 1,
      };
    }
    case 'setLists':
      return { ...state, lists: [...new Set(action.lists)].sort((a, b) => a - b) };
    case 'resetLists':
      return { ...state, lists: state.originalLists };
    case 'contactUpdated': {
      const update = (row: ExistingRow) =>
        row.contact.id === action.contact.id ? { ...row, contact: { ...row.contact, ...action.contact } } : row;
      return { ...state, active: state.active.map(update), removed: state.removed.map(update) };
    }
    case 'contactErased': {
      const keep = (row: ExistingRow) => row.contact.id !== action.id;
      return { ...state, active: state.active.filter(keep), removed: state.removed.filter(keep) };
    }
  }
}

function trimmed(fields: ContactFields) {
  return {
    email: fields.email.trim(),
    salutation: fields.salutation ?? 0,
    firstname: fields.firstname.trim(),
    lastname: fields.lastname.trim(),
  };
}

/** Whether the user changed a contact of the group (an email only in case or spaces is none). */
export function isChanged(row: ExistingRow): boolean {
  const now = trimmed(row.fields);
  const was = row.contact;
  return (
    normalizeEmail(now.email) !== normalizeEmail(was.email) ||
    now.salutation !== was.salutation ||
    now.firstname !== was.firstname.trim() ||
    now.lastname !== was.lastname.trim()
  );
}

export function emailChanged(row: ExistingRow): boolean {
  return normalizeEmail(row.fields.email) !== normalizeEmail(row.contact.email);
}

/**
 * The PUT body (contract "Customer group"): changed contacts with their id, removed ones as
 * `{id, remove: true}`, typed-in ones without id in `contacts`, taken-over candidates in
 * `alphaPlanContacts`. Contacts left as they were are not named: they keep their fields and
 * only take the lists. `uncheckedListsIds` are the lists the group had and no longer has.
 */
export function toGroupInput(state: EditorState, customerNumber: number): CustomerGroupInput {
  const contacts: ContactInput[] = [
    ...state.active.filter(isChanged).map((row) => ({ id: row.contact.id, ...trimmed(row.fields) })),
    ...state.removed.map((row) => ({ id: row.contact.id, remove: true as const })),
    ...state.fresh.filter((row) => row.candidateKey === null).map((row) => trimmed(row.fields)),
  ];
  return {
    customerNumber,
    companyName: state.companyName.trim(),
    listsIds: state.lists,
    uncheckedListsIds: state.originalLists.filter((id) => !state.lists.includes(id)),
    contacts,
    alphaPlanContacts: state.fresh.filter((row) => row.candidateKey !== null).map((row) => trimmed(row.fields)),
  };
}
