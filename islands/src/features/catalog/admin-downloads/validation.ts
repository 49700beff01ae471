// Client checks of a download package and its files (spec §5, §9) with the server's German
// messages, so the user reads the same text whichever side refused. Pure functions: each
// answers the message, or null when the value is fine. Lengths count characters, after trimming.
import type { UploadRequirements } from '../../../lib/downloads';

export const DOWNLOAD_NAME_MIN = 5;
export const DOWNLOAD_NAME_MAX = 100;
export const FILE_NAME_MIN = 5;
export const FILE_NAME_MAX = 255;

export const PROVIDER_REQUIRED = 'Bitte wählen Sie einen Anbieter aus.';
export const START_REQUIRED = 'Bitte geben Sie ein gültiges Startdatum an.';
export const END_REQUIRED = 'Bitte geben Sie ein gültiges Enddatum an.';
export const END_BEFORE_START = 'Das Enddatum darf nicht vor dem Startdatum liegen.';
export const LISTS_REQUIRED = 'Es muss mindestens ein Kriterium hinterlegt werden';
export const UPLOADS_PENDING = 'Bitte warten Sie, bis alle Dateien hochgeladen sind.';

function length(value: string): number {
  return [...value.trim()].length;
}

function bounded(value: string, field: string, min: number, max: number): string | null {
  const size = length(value);
  if (size < min) return `${field} muss mindestens ${min} Zeichen lang sein.`;
  if (size > max) return `${field} darf höchstens ${max} Zeichen lang sein.`;
  return null;
}

/** The package's description ("Bezeichnung"): 5–100 characters. */
export function validateDownloadName(name: string): string | null {
  return bounded(name, 'Die Bezeichnung', DOWNLOAD_NAME_MIN, DOWNLOAD_NAME_MAX);
}

/** A file's name in the package: 5–255 characters, no path. */
export function validateFileName(name: string): string | null {
  const bounds = bounded(name, 'Der Dateiname', FILE_NAME_MIN, FILE_NAME_MAX);
  if (bounds) return bounds;
  if (/[/\\]/.test(name)) return 'Der Dateiname darf keine Schrägstriche enthalten.';
  if (name.trim().startsWith('.')) return 'Der Dateiname darf nicht mit einem Punkt beginnen.';
  return null;
}

/** A date input's value (`YYYY-MM-DD`) that names a real day. */
function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export interface PackageValues {
  name: string;
  providerId: number | null;
  startAt: string;
  endAt: string;
  listCount: number;
  uploading: boolean;
}

/** The first problem of the form, in the order of its fields, or null when it may be saved. */
export function validatePackage(values: PackageValues): string | null {
  const name = validateDownloadName(values.name);
  if (name) return name;
  if (values.providerId === null) return PROVIDER_REQUIRED;
  if (!isDay(values.startAt)) return START_REQUIRED;
  if (!isDay(values.endAt)) return END_REQUIRED;
  // Same-format ISO days compare correctly as strings.
  if (values.endAt < values.startAt) return END_BEFORE_START;
  if (values.listCount === 0) return LISTS_REQUIRED;
  if (values.uploading) return UPLOADS_PENDING;
  return null;
}

/** The extension as the server reads it (lower case, 1–16 letters or digits), or null. */
export function extensionOf(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || fileName.slice(0, dot).trim() === '') return null;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,16}$/.test(ext) ? ext : null;
}

export function emptyFileMessage(fileName: string): string {
  return `Die Datei ${fileName} muss größer als 0 KB sein.`;
}

export function tooLargeMessage(fileName: string, limitSizeMB: number): string {
  return `Die Datei ${fileName} ist zu groß. Erlaubt sind höchstens ${limitSizeMB} MB.`;
}

const NO_EXTENSION = '(ohne Endung)';

export function extensionMessage(
  fileNames: readonly string[],
  extensions: readonly string[],
  allowed: readonly string[],
): string {
  return (
    `Nicht erlaubter Dateityp: ${fileNames.join(', ')}. Endungen: ${extensions.join(', ')}. ` +
    `Erlaubt sind: ${allowed.join(', ')}.`
  );
}

/** Why a chosen file cannot be uploaded (empty, too large, wrong type), or null. */
export function checkFile(file: { name: string; size: number }, requirements: UploadRequirements): string | null {
  if (file.size === 0) return emptyFileMessage(file.name);
  if (file.size > requirements.limitSizeMB * 1024 * 1024) return tooLargeMessage(file.name, requirements.limitSizeMB);
  const ext = extensionOf(file.name);
  if (ext === null || !requirements.allowedExtArray.includes(ext)) {
    return extensionMessage([file.name], [ext ?? NO_EXTENSION], requirements.allowedExtArray);
  }
  return null;
}
