// The texts of the admin contacts screen that the spec fixes (§7, §8) or tests look for.

export const EMPTY_MESSAGE = 'Kein Eintrag gefunden!';
export const ONLY_IN_PRODUCTION_CODE = 'function_only_in_production_available';
export const ONLY_IN_PRODUCTION_MESSAGE =
  'Diese Funktion ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!';
export const ALREADY_DONE_CODE = 'DOUBLE_OPT-IN_ALREADY_DONE';

/** After blocking or unblocking (spec §7). */
export function updatedMessage(email: string): string {
  return `${email} wurde erfolgreich aktualisiert.`;
}

export function doubleOptInSentMessage(email: string): string {
  return `Double-Opt-In an ${email} gesendet.`;
}

export function massMailStartedMessage(count: number, total: number): string {
  return `Double-Opt-In wird an ${count}/${total} Kontakte gesendet.`;
}

export function deleteQuestion(email: string): string {
  return `Kontakt ${email} wirklich löschen?`;
}

/** The warning above the table while changes wait for Brevo. */
export function retriesMessage(count: number): string {
  return count === 1
    ? '1 Änderung wartet noch auf die Übertragung an Brevo.'
    : `${count} Änderungen warten noch auf die Übertragung an Brevo.`;
}
