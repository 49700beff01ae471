// The customer group of the contact editor as the server sends and takes it (spec §3
// "Contact", "Customer group"; the API contract of GET/PUT /api/contacts/customer-number/{n}).

/** 0 keine, 1 Firma, 2 Herr, 3 Frau, 4 Diverses (spec §3, §9). */
export type Salutation = 0 | 1 | 2 | 3 | 4;

export interface Contact {
  id: number;
  email: string;
  salutation: number;
  firstname: string;
  lastname: string;
  customerNumber: number;
  companyName: string;
  emailBlacklisted: boolean;
  doubleOptIn: boolean;
  listsIds: number[];
}

/** A contact the planning system knows for this customer and the group does not have yet. */
export interface ImportCandidate {
  salutation: number;
  firstname: string;
  lastname: string;
  email: string;
  companyName: string | null;
  /** `service` (the planning system) or `csv` (an imported file). */
  source: string;
  /** The email is a contact of this other customer number. */
  existingCustomerNumber: number | null;
}

export interface Imports {
  company: { customerNumber: number; companyName: string } | null;
  contacts: ImportCandidate[];
  /** E.g. that no planning system is connected or that it did not answer. */
  message: string | null;
}

/** GET and PUT /api/contacts/customer-number/{n}. */
export interface CustomerGroup {
  content: Contact[];
  imports: Imports | null;
}

/** The person fields a contact row edits. */
export interface ContactFields {
  /** null: not chosen yet (a new row). */
  salutation: number | null;
  firstname: string;
  lastname: string;
  email: string;
}

export type ContactInput =
  | { id: number; email: string; salutation: number; firstname: string; lastname: string }
  | { id: number; remove: true }
  | { email: string; salutation: number; firstname: string; lastname: string };

/** The body of PUT /api/contacts/customer-number/{n}. */
export interface CustomerGroupInput {
  customerNumber: number;
  companyName: string;
  listsIds: number[];
  uncheckedListsIds: number[];
  contacts: ContactInput[];
  alphaPlanContacts: { email: string; salutation: number; firstname: string; lastname: string }[];
}

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
