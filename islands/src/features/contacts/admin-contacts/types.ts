// Contacts, their lists and the double opt-in mail job as the server sends them (spec §3, §7).
import type { Schemas } from '../../../lib/apiTypes';

/** A contact; `salutation` 0 none, 1 Firma, 2 Herr, 3 Frau, 4 Diverses. */
export type Contact = Schemas['Contact'];

export interface Paged<T> {
  content: T[];
  count: number;
}

/** A list (criterion) a contact is on: GET /api/contacts/{id}/lists. */
export type ContactList = Schemas['AssignedList'];

/**
 * The double opt-in mail to all pending contacts and how far it has come. openapi.json types
 * `status` as a string; the server sets these two.
 */
export type MailJob = Omit<Schemas['MailJob'], 'status'> & { status: 'running' | 'done' };

/** Answer of POST /api/smtp/email/{email}. */
export type SendAnswer = Schemas['DoubleOptInSent'];

/** Answer of POST /api/smtp/emails. */
export type MassAnswer = Omit<Schemas['MassMailAnswer'], 'job'> & { job?: MailJob | null };

/** A change that still has to reach Brevo (GET /api/contacts/marketing-retries): `operation` is
 * `upsert`, `update` or `delete` of a contact, or `provider_lists` / `delete_folder`. */
export type MarketingRetry = Schemas['MarketingRetry'];

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
