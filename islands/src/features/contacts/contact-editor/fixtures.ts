// Test data of the contact editor.
import type { Contact, CustomerGroup, ImportCandidate } from './types';

export function contact(id: number, overrides: Partial<Contact> = {}): Contact {
  return {
    id,
    email: `kontakt${id}@example.de`,
    salutation: 2,
    firstname: 'Max',
    lastname: `Muster${id}`,
    customerNumber: 100001,
    companyName: 'Müller & Söhne Vertriebs GmbH',
    emailBlacklisted: false,
    doubleOptIn: true,
    listsIds: [],
    consent: null,
    ...overrides,
  };
}

export function candidate(overrides: Partial<ImportCandidate> = {}): ImportCandidate {
  return {
    salutation: 2,
    firstname: 'Paul',
    lastname: 'Plan',
    email: 'paul.plan@planung.example',
    companyName: 'Planungs GmbH',
    source: 'service',
    existingCustomerNumber: null,
    ...overrides,
  };
}

export function group(
  contacts: Contact[],
  imports: Partial<NonNullable<CustomerGroup['imports']>> = {},
): CustomerGroup {
  const first = contacts[0];
  return {
    content: contacts,
    imports: {
      company: first ? { customerNumber: first.customerNumber, companyName: first.companyName } : null,
      contacts: [],
      message: null,
      ...imports,
    },
  };
}
