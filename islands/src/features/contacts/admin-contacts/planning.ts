// The import from the planning system (More menu "Import aus der Planung"; Admin, BU-Moderator):
// its status, and the CSV file of contact candidates for customers whose planning system has
// no service. Imported candidates appear in the contact editor of their customer number.
import { apiFetch } from '../../../lib/api';
import type { Schemas } from '../../../lib/apiTypes';
import { errorCountOf, lineErrorsOf, postCsv } from './rawApi';
import type { LineError } from './rawApi';

export type { LineError } from './rawApi';

/** Largest file the server takes. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const CSV_COLUMNS = 'Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail';

/** Whether a planning system service is connected; candidates from CSV files waiting. */
export type PlanningStatus = Schemas['PlanningStatus'];

export type CsvCandidate = Schemas['CsvCandidate'];

/** The first valid lines and line errors (up to 200 each), with the totals. */
export type CsvPreview = Schemas['CsvPreview'];

export type CsvImported = Schemas['CsvImported'];

export function fetchPlanningStatus(signal?: AbortSignal): Promise<PlanningStatus> {
  return apiFetch<PlanningStatus>('/api/planning/status', { signal });
}

export async function previewCsv(file: Blob, signal?: AbortSignal): Promise<CsvPreview> {
  const answer = await postCsv<Partial<CsvPreview> | undefined>('/api/planning/csv/preview', file, signal);
  const errors = lineErrorsOf(answer);
  return {
    candidates: Array.isArray(answer?.candidates) ? answer.candidates : [],
    count: typeof answer?.count === 'number' ? answer.count : 0,
    companies: typeof answer?.companies === 'number' ? answer.companies : 0,
    errors,
    errorCount: errorCountOf(answer, errors.length),
  };
}

export async function importCsv(file: Blob): Promise<CsvImported> {
  const answer = await postCsv<Partial<CsvImported> | undefined>('/api/planning/csv/import', file);
  return {
    imported: typeof answer?.imported === 'number' ? answer.imported : 0,
    companies: typeof answer?.companies === 'number' ? answer.companies : 0,
  };
}

const SALUTATIONS = ['', 'Firma', 'Herr', 'Frau', 'Diverses'];

/** Spec §3: 1 Firma, 2 Herr, 3 Frau, 4 Diverses; 0 (none) is empty. */
export function salutationText(value: number): string {
  return SALUTATIONS[value] ?? '';
}

export function lineErrorText(error: LineError): string {
  return `Zeile ${error.line}: ${error.message}`;
}

/** "1 Kontakt", "3 Kontakte". */
export function contactsText(n: number): string {
  return n === 1 ? '1 Kontakt' : `${n.toLocaleString('de-DE')} Kontakte`;
}

/** "1 Firma", "2 Firmen". */
export function companiesText(n: number): string {
  return n === 1 ? '1 Firma' : `${n.toLocaleString('de-DE')} Firmen`;
}

export function importedMessage(result: CsvImported): string {
  return `${contactsText(result.imported)} von ${companiesText(result.companies)} importiert.`;
}

/** The customer number typed into the field, or null when it is not one (digits only). */
export function customerNumberOf(text: string): string | null {
  const value = text.trim();
  return /^\d{1,12}$/.test(value) && Number(value) > 0 ? value : null;
}
