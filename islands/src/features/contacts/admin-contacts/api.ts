// The calls of the admin contacts screen (spec §7 "Contacts").
import { apiFetch } from '../../../lib/api';
import { apiQueryOf } from './listQuery';
import type { ContactFilters } from './listQuery';
import type { Contact, ContactList, MailJob, MarketingRetry, MassAnswer, Paged, SendAnswer } from './types';

export function fetchContacts(filters: ContactFilters, offset: number, signal?: AbortSignal): Promise<Paged<Contact>> {
  return apiFetch<Paged<Contact>>(`/api/contacts?${apiQueryOf(filters, offset)}`, { signal });
}

/** The lists of one contact, sorted by provider name, then list name. */
export async function fetchContactLists(id: number, signal?: AbortSignal): Promise<ContactList[]> {
  const answer = await apiFetch<Paged<ContactList>>(`/api/contacts/${id}/lists`, { signal });
  return answer?.content ?? [];
}

/** Blocks or unblocks the contact's email; answers the updated contact. */
export function toggleBlacklist(id: number): Promise<Contact> {
  return apiFetch<Contact>(`/api/contacts/email-blacklist/${id}`, { method: 'PATCH' });
}

export function deleteContact(id: number): Promise<{ message: string; id: number }> {
  return apiFetch<{ message: string; id: number }>(`/api/contacts/${id}`, { method: 'DELETE' });
}

/** The double opt-in mail to one contact. */
export function sendDoubleOptIn(email: string): Promise<SendAnswer> {
  return apiFetch<SendAnswer>(`/api/smtp/email/${encodeURIComponent(email)}`, { method: 'POST' });
}

/** The double opt-in mail to all pending contacts (a job on the server; production only). */
export function sendDoubleOptInToAll(): Promise<MassAnswer> {
  return apiFetch<MassAnswer>('/api/smtp/emails', { method: 'POST' });
}

/** The newest mass mail and how far it has come. */
export async function fetchMailJob(signal?: AbortSignal): Promise<MailJob | null> {
  const answer = await apiFetch<{ job: MailJob | null } | undefined>('/api/smtp/emails', { signal });
  return answer?.job ?? null;
}

export function fetchMarketingRetries(signal?: AbortSignal): Promise<Paged<MarketingRetry>> {
  return apiFetch<Paged<MarketingRetry>>('/api/contacts/marketing-retries', { signal });
}
