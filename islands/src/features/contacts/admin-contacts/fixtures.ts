// Test data of the admin contacts screen.
import type { Contact, ContactList, MailJob } from './types';

export function contact(id: number, overrides: Partial<Contact> = {}): Contact {
  const customerNumber = overrides.customerNumber ?? 100000 + id;
  const companyName = overrides.companyName ?? `Firma ${id}`;
  return {
    id,
    brevoContactId: null,
    doubleOptIn: true,
    doubleOptInAt: '2025-03-02T10:00:00Z',
    doubleOptInSentAt: '2025-03-01T10:00:00Z',
    email: `kontakt${id}@example.de`,
    customerNumber,
    companyName,
    company: { customerNumber, companyName },
    salutation: 2,
    firstname: 'Max',
    lastname: `Muster${id}`,
    externId: null,
    emailBlacklisted: false,
    createdAt: '2025-03-01T08:00:00Z',
    updatedAt: '2025-03-05T14:07:00Z',
    listsIds: [],
    ...overrides,
  };
}

export function contactList(id: number, overrides: Partial<ContactList> = {}): ContactList {
  return {
    id,
    name: `Kriterium ${id}`,
    active: true,
    brevoId: null,
    ProviderId: 1,
    providerName: 'Stadtwerke Nord',
    contactIds: [1],
    ...overrides,
  };
}

export function mailJob(overrides: Partial<MailJob> = {}): MailJob {
  return {
    id: 1,
    kind: 'double_opt_in',
    status: 'running',
    total: 10,
    startedBy: 'admin@example.de',
    createdAt: '2025-03-05T14:00:00Z',
    updatedAt: '2025-03-05T14:00:00Z',
    finishedAt: null,
    pending: 10,
    sending: 0,
    sent: 0,
    failed: 0,
    skipped: 0,
    ...overrides,
  };
}
