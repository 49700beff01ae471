// The texts of the contact editor that the spec fixes (§2, §5, §8) or that tests look for.
// The field messages are the server's (src/domain/contacts.rs), so the user reads the same
// text whichever side refused.

export const PLACEHOLDER_CUSTOMER_NUMBER = 9999999;
export const PLACEHOLDER_COMPANY = 'NaN';

/** The group could not be loaded for a reason that may pass (offers "Erneut versuchen"). */
export const LOAD_FAILED = 'Die Kontakte konnten nicht geladen werden.';

export const DUPLICATE_EMAIL = 'E-Mail doppelt vorhanden!';
export const CRITERIA_REQUIRED =
  'Es muss mindestens ein Kriterium ausgewählt werden.';
export const SALUTATION_REQUIRED = 'Bitte wählen Sie eine Anrede (Anrede wählen).';
export const EMAIL_INVALID = 'Bitte geben Sie eine gültige E-Mail-Adresse an.';
export const FIRSTNAME_REQUIRED = 'Bitte geben Sie einen Vornamen an.';
export const LASTNAME_REQUIRED = 'Bitte geben Sie einen Nachnamen an.';
export const COMPANY_REQUIRED = 'Bitte geben Sie eine Firma an.';
export const CONTACT_REQUIRED = 'Bitte fügen Sie mindestens einen Kontakt hinzu.';

export const CREATED_MESSAGE = 'Erfolgreich angelegt';
export const UPDATED_MESSAGE = 'Erfolgreich aktualisiert';

export const SALUTATIONS: readonly { value: number; label: string }[] = [
  { value: 0, label: 'keine' },
  { value: 1, label: 'Firma' },
  { value: 2, label: 'Herr' },
  { value: 3, label: 'Frau' },
  { value: 4, label: 'Diverses' },
];

export function salutationLabel(value: number | null): string {
  return SALUTATIONS.find((s) => s.value === value)?.label ?? '';
}

/** An email another customer already uses (spec §5, §8; the server's text). */
export function emailTakenMessage(email: string, customerNumber: number): string {
  return `Die E-Mail ${email} ist bereits unter der Kundennummer ${customerNumber} registriert.`;
}

export function tooLongMessage(field: string): string {
  return `${field} darf höchstens 100 Zeichen lang sein.`;
}

export function invisibleMessage(field: string): string {
  return `${field} darf keine Steuerzeichen oder unsichtbaren Formatierungszeichen enthalten.`;
}

export function createQuestion(count: number): string {
  return count === 1 ? '1 neuen Kontakt anlegen?' : `${count} neue Kontakte anlegen?`;
}

export function deleteQuestion(count: number): string {
  return count === 1 ? '1 Kontakt löschen?' : `${count} Kontakte löschen?`;
}

/** After blocking or unblocking (spec §7). */
export function blockUpdatedMessage(email: string): string {
  return `${email} wurde erfolgreich aktualisiert.`;
}

export const ERASE_LABEL = 'Endgültig löschen (DSGVO)';

/** What an erasure removes, for its confirmation (the order of POST /api/contacts/{id}/erase). */
export const ERASURE_REMOVES: readonly string[] = [
  'den Kontakt in Brevo, wenn Brevo angebunden ist',
  'E-Mail-Adresse, Anrede, Name, Kundennummer und externe Id des Kontakts',
  'seine Zuordnung zu Listen (Kriterien)',
  'seine Double-Opt-In-Links und den Nachweis seiner Einwilligung',
  'seine Mails aus Mail-Aufträgen und aus der Ablage',
  'wartende Änderungen für Brevo und Importkandidaten mit seiner Adresse',
  'die Kundengruppe, wenn kein anderer Kontakt darin ist',
  'seine Angaben im Protokoll (sie lauten danach „gelöscht“)',
];
