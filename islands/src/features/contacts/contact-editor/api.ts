// The calls of the contact editor (spec §7 "Contacts", "Providers, folders, lists").
import { apiFetch } from '../../../lib/api';
import type { Schemas } from '../../../lib/apiTypes';
import type { Contact, CustomerGroup, CustomerGroupInput, ListRef } from './types';

function groupPath(customerNumber: string | number): string {
  return `/api/contacts/customer-number/${encodeURIComponent(String(customerNumber))}`;
}

export function fetchGroup(customerNumber: string, signal?: AbortSignal): Promise<CustomerGroup> {
  return apiFetch<CustomerGroup>(groupPath(customerNumber), { signal });
}

/** Saves the group; answers it as the server now has it. */
export function saveGroup(customerNumber: string | number, input: CustomerGroupInput): Promise<CustomerGroup> {
  return apiFetch<CustomerGroup>(groupPath(customerNumber), { method: 'PUT', body: input });
}

/** The contact with this email, or null (the server answers `{}`). */
export async function findContactByEmail(
  email: string,
  signal?: AbortSignal,
): Promise<Pick<Contact, 'id' | 'customerNumber'> | null> {
  const answer = await apiFetch<Partial<Contact> | undefined>(`/api/contacts/email/${encodeURIComponent(email)}`, {
    signal,
  });
  if (!answer || typeof answer.id !== 'number') return null;
  return { id: answer.id, customerNumber: Number(answer.customerNumber) };
}

type AssignedList = Schemas['AssignedList'];

/** The ids as the path of GET /api/contacts/lists/{ids}: a JSON array, which the server reads
 * for one id as well (a bare `5` it takes for a number, not a list). */
export function contactIdsPath(contactIds: readonly number[]): string {
  return `/api/contacts/lists/${encodeURIComponent(JSON.stringify(contactIds))}`;
}

/** The lists the given contacts are on (names for the chosen-criteria badges). */
export async function fetchListsOfContacts(contactIds: number[], signal?: AbortSignal): Promise<ListRef[]> {
  if (contactIds.length === 0) return [];
  const answer = await apiFetch<{ content: AssignedList[] } | undefined>(
    contactIdsPath(contactIds),
    { signal },
  );
  return (answer?.content ?? []).map(({ id, name, active, ProviderId, providerName }) => ({
    id,
    name,
    active,
    providerId: ProviderId,
    providerName,
  }));
}

/** Blocks or unblocks the contact's email; answers the updated contact. */
export function toggleBlacklist(id: number): Promise<Contact> {
  return apiFetch<Contact>(`/api/contacts/email-blacklist/${id}`, { method: 'PATCH' });
}

/** What an erasure removed (POST /api/contacts/{id}/erase). */
export type ErasureReport = Schemas['ErasureReport'];

/** Erases the contact for good (DSGVO Art. 17): in Brevo first, then here. */
export function eraseContact(id: number): Promise<ErasureReport> {
  return apiFetch<ErasureReport>(`/api/contacts/${id}/erase`, { method: 'POST' });
}
