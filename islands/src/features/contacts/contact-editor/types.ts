// The customer group of the contact editor as the server sends and takes it (spec §3
// "Contact", "Customer group"; the API contract of GET/PUT /api/contacts/customer-number/{n}).
import type { Narrowed, Schemas } from '../../../lib/apiTypes';

/** 0 keine, 1 Firma, 2 Herr, 3 Frau, 4 Diverses (spec §3, §9). */
export type Salutation = 0 | 1 | 2 | 3 | 4;

/** A contact of the group, the fields the editor reads. */
export type Contact = Pick<
  Schemas['Contact'],
  | 'id'
  | 'email'
  | 'salutation'
  | 'firstname'
  | 'lastname'
  | 'customerNumber'
  | 'companyName'
  | 'emailBlacklisted'
  | 'doubleOptIn'
  | 'listsIds'
  | 'consent'
>;

/**
 * A contact the planning system knows for this customer and the group does not have yet;
 * `source` is `service` (the planning system) or `csv` (an imported file), and
 * `existingCustomerNumber` the customer the email already belongs to.
 */
export type ImportCandidate = Schemas['ImportCandidate'];

/** The planning system's company and candidates; `message` e.g. that it did not answer. */
export type Imports = Schemas['Imports'];

/** GET and PUT /api/contacts/customer-number/{n}. */
export type CustomerGroup = Omit<Schemas['CustomerGroup'], 'content' | 'imports'> & {
  content: Contact[];
  imports: Imports | null;
};

/** The person fields a contact row edits. */
export interface ContactFields {
  /** null: not chosen yet (a new row). */
  salutation: number | null;
  firstname: string;
  lastname: string;
  email: string;
}

type PersonInput = Narrowed<
  Schemas['GroupContactInput'],
  { email: string; salutation: number; firstname: string; lastname: string }
>;

/** A contact in the group's body: changed, removed, or new. */
export type ContactInput =
  | Narrowed<Schemas['GroupContactInput'], { id: number } & PersonInput>
  | Narrowed<Schemas['GroupContactInput'], { id: number; remove: true }>
  | PersonInput;

/** The body of PUT /api/contacts/customer-number/{n}. */
export type CustomerGroupInput = Narrowed<
  Schemas['CustomerGroupInput'],
  {
    customerNumber: number;
    companyName: string;
    listsIds: number[];
    uncheckedListsIds: number[];
    contacts: ContactInput[];
    alphaPlanContacts: PersonInput[];
  }
>;

/** A provider of the criteria picker (island props). */
export interface ProviderRef {
  id: number;
  name: string;
  /** Whether the user may choose this provider's lists (Admin or one of its allowedRoles). */
  mayManage: boolean;
}

/** A list (criterion) as the picker and the chosen-criteria badges need it. */
export interface ListRef {
  id: number;
  name: string;
  active: boolean;
  providerId?: number | null;
  providerName?: string | null;
}

/** The result of the debounced email check (GET /api/contacts/email/{email}). */
export type EmailCheck =
  | { state: 'checking' }
  | { state: 'done'; id: number | null; customerNumber: number | null }
  | { state: 'failed' };
