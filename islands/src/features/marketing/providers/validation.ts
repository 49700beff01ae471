// Client-side validation of providers and lists (spec §5, §9) with the exact German messages.
// Pure functions: each returns the message, or null when the value is fine. Names are checked
// after trimming, and lengths count characters (not UTF-16 units).
import type { FolderChoice } from './types';

export const PROVIDER_NAME_MIN = 2;
export const PROVIDER_NAME_MAX = 25;
export const LIST_NAME_CREATE_MIN = 5;
export const LIST_NAME_CREATE_MAX = 50;
export const LIST_NAME_RENAME_MIN = 5;
export const LIST_NAME_RENAME_MAX = 100;

export const ROLES_REQUIRED_MESSAGE = 'Es muss mindestens eine Gruppe eingetragen werden!';
export const FOLDERS_REQUIRED_MESSAGE = 'Aktiver und inaktiver Marketing-Ordner müssen gesetzt sein!';
/** Warning when the server answers a list status change with change_folder_warning. */
export const FOLDER_WARNING_MESSAGE = 'Aktiver und inaktiver Marketing-Ordner müssen beim Anbieter hinterlegt sein!';

function length(value: string): number {
  return [...value].length;
}

export function minLengthMessage(min: number): string {
  return `Der Name muss mindestens ${min} Zeichen lang sein.`;
}

export function maxLengthMessage(max: number): string {
  return `Der Name darf höchstens ${max} Zeichen lang sein.`;
}

/** Checks a name's length (trimmed) against min and max. */
export function validateNameLength(name: string, min: number, max: number): string | null {
  const size = length(name.trim());
  if (size < min) return minLengthMessage(min);
  if (size > max) return maxLengthMessage(max);
  return null;
}

/** Provider name: 2–25 characters. */
export function validateProviderName(name: string): string | null {
  return validateNameLength(name, PROVIDER_NAME_MIN, PROVIDER_NAME_MAX);
}

/** At least one role. */
export function validateRoles(roles: readonly string[]): string | null {
  return roles.length === 0 ? ROLES_REQUIRED_MESSAGE : null;
}

export function duplicateRoleMessage(role: string): string {
  return `${role} existiert bereits in der Liste!`;
}

/** Whether the role input may be added: not empty, not already in the list (case-insensitive). */
export function validateNewRole(role: string, roles: readonly string[]): string | null {
  const candidate = role.trim();
  if (candidate === '') return null; // blocked by the disabled add button, no message
  const lower = candidate.toLocaleLowerCase('de-DE');
  if (roles.some((existing) => existing.toLocaleLowerCase('de-DE') === lower)) {
    return duplicateRoleMessage(candidate);
  }
  return null;
}

/** Both marketing folders set: 'auto' or a folder id, not none. */
export function validateFolders(active: FolderChoice, inactive: FolderChoice): string | null {
  return active === null || inactive === null ? FOLDERS_REQUIRED_MESSAGE : null;
}

export interface ProviderFormValues {
  name: string;
  roles: readonly string[];
  activeFolder: FolderChoice;
  inactiveFolder: FolderChoice;
}

export interface ProviderFormErrors {
  name?: string;
  roles?: string;
  folders?: string;
}

/** All errors of the provider form, in the order of the form's fields. */
export function validateProviderForm(values: ProviderFormValues): ProviderFormErrors {
  const errors: ProviderFormErrors = {};
  const name = validateProviderName(values.name);
  if (name) errors.name = name;
  const roles = validateRoles(values.roles);
  if (roles) errors.roles = roles;
  const folders = validateFolders(values.activeFolder, values.inactiveFolder);
  if (folders) errors.folders = folders;
  return errors;
}

/** The first message of a validateProviderForm result (for the error toast), or null. */
export function firstError(errors: ProviderFormErrors): string | null {
  return errors.name ?? errors.roles ?? errors.folders ?? null;
}

/**
 * Whether a server answer means the provider's marketing folders are missing: spec §8 "Folders
 * not set" (a 400 with the folders message, or the code change_folder_warning) is a warning,
 * not an error.
 */
export function isFolderWarning(error: { code: string | null; message: string }): boolean {
  return error.code === 'change_folder_warning' || error.message === FOLDERS_REQUIRED_MESSAGE;
}

export type ListNameMode = 'create' | 'rename';

/** List (criterion) name: 5–50 characters on create, 5–100 on rename. */
export function validateListName(name: string, mode: ListNameMode): string | null {
  return mode === 'create'
    ? validateNameLength(name, LIST_NAME_CREATE_MIN, LIST_NAME_CREATE_MAX)
    : validateNameLength(name, LIST_NAME_RENAME_MIN, LIST_NAME_RENAME_MAX);
}

/** Logo types every browser shows and the server takes as a logo. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** The image picker accepts images only: PNG, JPEG, GIF or WebP (no SVG: it can carry scripts). */
export function isImageFile(file: { type: string; name: string }): boolean {
  if (file.type !== '') return (LOGO_TYPES as readonly string[]).includes(file.type);
  return /\.(png|jpe?g|gif|webp)$/i.test(file.name);
}

export function notAnImageMessage(fileName: string): string {
  return `„${fileName}“ ist keine Bilddatei. Bitte ein Bild auswählen.`;
}
