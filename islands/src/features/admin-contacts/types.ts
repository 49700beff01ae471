// Contacts, their lists and the double opt-in mail job as the server sends them (spec §3, §7).

export interface Contact {
  id: number;
  brevoContactId: number | null;
  doubleOptIn: boolean;
  doubleOptInAt: string | null;
  /** When the last confirmation mail went out. */
  doubleOptInSentAt: string | null;
  email: string;
  customerNumber: number;
  companyName: string;
  company: { customerNumber: number; companyName: string };
  /** 0 none, 1 Firma, 2 Herr, 3 Frau, 4 Diverses. */
  salutation: number;
  firstname: string;
  lastname: string;
  externId: string | null;
  emailBlacklisted: boolean;
  createdAt: string;
  updatedAt: string;
  listsIds: number[];
}

export interface Paged<T> {
  content: T[];
  count: number;
}

/** A list (criterion) a contact is on: GET /api/contacts/{id}/lists. */
export interface ContactList {
  id: number;
  name: string;
  active: boolean;
  brevoId: number | null;
  ProviderId: number;
  providerName: string;
  contactIds: number[];
}

/** The double opt-in mail to all pending contacts and how far it has come. */
export interface MailJob {
  id: number;
  kind: string;
  status: 'running' | 'done';
  total: number;
  startedBy: string;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  pending: number;
  sending: number;
  sent: number;
  failed: number;
  skipped: number;
}

/** Answer of POST /api/smtp/email/{email}. */
export interface SendAnswer {
  status: number;
  messageId: string | null;
  code: string;
  message: string;
}

/** Answer of POST /api/smtp/emails. */
export interface MassAnswer {
  code: string;
  count: number;
  total: number;
  message: string;
  job: MailJob | null;
}

/** A change that still has to reach Brevo: GET /api/contacts/marketing-retries. */
export interface MarketingRetry {
  id: number;
  /** The contact's email; for folder and list changes a German description of what waits. */
  email: string;
  /** `upsert`, `update` or `delete` of a contact; `provider_lists` or `delete_folder`. */
  operation: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The list the table is limited to (`?liste=`), as the server found it. */
export interface ListInfo {
  id: number;
  name: string;
  providerId: number;
  providerName: string;
}

/** The URL's list parameters as the server read them (values may be strings, numbers or null). */
export interface ContactsQuery {
  limit?: number | string | null;
  offset?: number | string | null;
  sort?: string | null;
  sortBy?: string | null;
  emailBlacklisted?: string | null;
  doubleOptIn?: string | null;
  search?: string | null;
  status?: string | null;
  liste?: string | number | null;
  providerIds?: string | null;
}
