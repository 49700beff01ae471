// "Import aus der Planung" (More menu; Admin, BU-Moderator): whether a planning system service
// is connected and how many CSV candidates wait, a customer number that opens the contact
// editor (where the candidates of that customer appear), and the upload of a CSV file: preview
// first (rows, counts, errors per line), then the import.
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { Modal } from '../../../components/Modal';
import { isApiError } from '../../../lib/api';
import { toastReadError, toastWriteError } from '../../../lib/apiToasts';
import { navigateTo } from '../../../lib/navigate';
import { toast } from '../../../lib/toast';
import {
  companiesText,
  contactsText,
  CSV_COLUMNS,
  customerNumberOf,
  fetchPlanningStatus,
  importCsv,
  importedMessage,
  lineErrorText,
  MAX_CSV_BYTES,
  previewCsv,
  salutationText,
} from './planning';
import type { CsvPreview, LineError, PlanningStatus } from './planning';
import { CsvError } from './rawApi';

export const PLANNING_TITLE = 'Import aus der Planung';
export const CUSTOMER_NUMBER_ERROR = 'Bitte eine Kundennummer eingeben (nur Ziffern).';
export const TOO_LARGE_MESSAGE = 'Die Datei ist größer als 5 MiB.';
export const EMPTY_FILE_MESSAGE = 'Die Datei ist leer.';
export const NOTHING_VALID_MESSAGE = 'Die Datei enthält keine gültige Zeile.';
/** Rows of the preview table, and line errors listed. */
export const PREVIEW_ROWS = 50;
export const LISTED_ERRORS = 100;

export function editorUrl(customerNumber: string): string {
  return `/admin/contact/edit/${encodeURIComponent(customerNumber)}`;
}

type StatusState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; status: PlanningStatus };

type CsvState =
  | { kind: 'none' }
  | { kind: 'checking'; file: File }
  | { kind: 'previewed'; file: File; preview: CsvPreview }
  /** The file was refused before or instead of a preview. */
  | { kind: 'refused'; file: File | null; message: string; errors: LineError[]; errorCount: number };

/** "Planungssystem": whether a service is connected and how many CSV candidates wait. */
function PlanningStatusSection({ ids, status }: { ids: string; status: StatusState }) {
  return (
    <section className="mb-4" aria-labelledby={`${ids}-status-title`} data-testid="planning-status">
      <h3 className="h6" id={`${ids}-status-title`}>
        Planungssystem
      </h3>
      {status.kind === 'loading' && (
        <p className="text-body-secondary mb-0" role="status">
          <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          Status wird geladen …
        </p>
      )}
      {status.kind === 'failed' && (
        <p className="text-body-secondary mb-0">Der Status des Planungssystems konnte nicht geladen werden.</p>
      )}
      {status.kind === 'loaded' && (
        <ul className="list-unstyled mb-0">
          <li data-testid="planning-service" data-connected={String(status.status.service)}>
            <i
              className={`bi ${status.status.service ? 'bi-check-circle-fill text-success' : 'bi-dash-circle text-body-secondary'} me-2`}
              aria-hidden="true"
            />
            {status.status.service
              ? 'Ein Planungssystem ist angebunden: seine Kontakte erscheinen als Import-Kandidaten im Editor der Kundennummer.'
              : 'Kein Planungssystem angebunden: Import-Kandidaten kommen nur aus CSV-Dateien.'}
          </li>
          <li data-testid="planning-csv-candidates">
            <i className="bi bi-filetype-csv me-2" aria-hidden="true" />
            Kandidaten aus CSV-Dateien: <strong>{status.status.csvCandidates.toLocaleString('de-DE')}</strong>
          </li>
        </ul>
      )}
    </section>
  );
}

/** "Kandidaten eines Kunden ansehen": a customer number that opens the contact editor. */
function OpenEditorSection({ ids }: { ids: string }) {
  const [numberText, setNumberText] = useState('');
  const [numberError, setNumberError] = useState<string | null>(null);

  function openEditor(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = customerNumberOf(numberText);
    if (number === null) {
      setNumberError(CUSTOMER_NUMBER_ERROR);
      return;
    }
    setNumberError(null);
    navigateTo(editorUrl(number));
  }

  const numberInvalid = numberError !== null;
  return (
    <section className="mb-4" aria-labelledby={`${ids}-editor-title`}>
      <h3 className="h6" id={`${ids}-editor-title`}>
        Kandidaten eines Kunden ansehen
      </h3>
      <form className="d-flex flex-wrap align-items-start gap-2" noValidate onSubmit={openEditor} data-testid="planning-open-form">
        <div>
          <label htmlFor={`${ids}-number`} className="form-label visually-hidden">
            Kundennummer
          </label>
          <input
            id={`${ids}-number`}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            className={`form-control${numberInvalid ? ' is-invalid' : ''}`}
            placeholder="Kundennummer"
            value={numberText}
            onChange={(event) => {
              setNumberText(event.target.value);
              if (numberError) setNumberError(null);
            }}
            aria-invalid={numberInvalid}
            aria-describedby={numberInvalid ? `${ids}-number-error` : undefined}
            data-testid="planning-customer-number"
          />
          {numberInvalid && (
            <div id={`${ids}-number-error`} className="invalid-feedback d-block">
              {numberError}
            </div>
          )}
        </div>
        <button type="submit" className="btn btn-outline-primary" data-testid="planning-open-editor">
          <i className="bi bi-pencil-square me-1" aria-hidden="true" />
          Im Kontakt-Editor öffnen
        </button>
      </form>
    </section>
  );
}

/** The checked file's valid rows: a summary and the first rows as a table. */
function CsvPreviewView({ preview, errorCount }: { preview: CsvPreview; errorCount: number }) {
  return (
    <div data-testid="csv-preview">
      <p className="mb-2" role="status" data-testid="csv-summary">
        {preview.count === 0 ? (
          NOTHING_VALID_MESSAGE
        ) : (
          <>
            Gültig: <strong>{contactsText(preview.count)}</strong> von <strong>{companiesText(preview.companies)}</strong>
            {errorCount > 0 && (
              <>
                , fehlerhaft: <strong>{errorCount === 1 ? '1 Zeile' : `${errorCount} Zeilen`}</strong>
              </>
            )}
            .
          </>
        )}
      </p>
      {preview.candidates.length > 0 && (
        <div className="table-responsive ap-csv-preview mb-3">
          <table className="table table-sm table-striped align-middle mb-0" data-testid="csv-preview-table">
            <caption className="caption-top small">
              Vorschau: die ersten {Math.min(PREVIEW_ROWS, preview.candidates.length)} von {preview.count} gültigen Zeilen
            </caption>
            <thead>
              <tr>
                <th scope="col">Zeile</th>
                <th scope="col">Kundennummer</th>
                <th scope="col">Firma</th>
                <th scope="col">Anrede</th>
                <th scope="col">Vorname</th>
                <th scope="col">Nachname</th>
                <th scope="col">E-Mail</th>
              </tr>
            </thead>
            <tbody>
              {preview.candidates.slice(0, PREVIEW_ROWS).map((row) => (
                <tr key={row.line} data-testid="csv-preview-row">
                  <td>{row.line}</td>
                  <td>{row.customerNumber}</td>
                  <td>{row.companyName}</td>
                  <td>{salutationText(row.salutation)}</td>
                  <td>{row.firstname}</td>
                  <td>{row.lastname}</td>
                  <td>{row.email}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The file's faulty lines (the first LISTED_ERRORS of them). */
function CsvErrorList({ errors, errorCount }: { errors: LineError[]; errorCount: number }) {
  return (
    <div className="alert alert-danger mb-0" data-testid="csv-errors">
      <p className="fw-semibold mb-1">
        {errorCount === 1 ? '1 Zeile ist fehlerhaft' : `${errorCount} Zeilen sind fehlerhaft`}; korrigieren Sie die Datei
        und wählen Sie sie erneut:
      </p>
      <ul className="mb-0 ap-csv-errors">
        {errors.slice(0, LISTED_ERRORS).map((error, index) => (
          <li key={`${index}-${error.line}`} data-testid="csv-error">
            {lineErrorText(error)}
          </li>
        ))}
      </ul>
      {errorCount > Math.min(errors.length, LISTED_ERRORS) && (
        <p className="mb-0 mt-1">… und {errorCount - Math.min(errors.length, LISTED_ERRORS)} weitere.</p>
      )}
    </div>
  );
}

/** The CSV file: its check (preview) as soon as it is chosen, and its import. */
function useCsvImport(onImported: () => void) {
  const [csv, setCsv] = useState<CsvState>({ kind: 'none' });
  const [importing, setImporting] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const previewRef = useRef<AbortController | null>(null);

  // Closing (unmounting) stops a check under way.
  useEffect(
    () => () => {
      previewRef.current?.abort();
    },
    [],
  );

  async function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    previewRef.current?.abort();
    const file = event.target.files?.[0] ?? null;
    if (!file) {
      setCsv({ kind: 'none' });
      return;
    }
    if (file.size === 0) {
      setCsv({ kind: 'refused', file, message: EMPTY_FILE_MESSAGE, errors: [], errorCount: 0 });
      return;
    }
    if (file.size > MAX_CSV_BYTES) {
      setCsv({ kind: 'refused', file, message: TOO_LARGE_MESSAGE, errors: [], errorCount: 0 });
      return;
    }
    const controller = new AbortController();
    previewRef.current = controller;
    setCsv({ kind: 'checking', file });
    try {
      const preview = await previewCsv(file, controller.signal);
      if (!controller.signal.aborted) setCsv({ kind: 'previewed', file, preview });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (isApiError(error) && error.status !== 0 && error.status < 500) {
        const csvError = error instanceof CsvError ? error : null;
        setCsv({
          kind: 'refused',
          file,
          message: error.message,
          errors: csvError?.errors ?? [],
          errorCount: csvError?.errorCount ?? 0,
        });
      } else {
        toastWriteError(error);
        setCsv({ kind: 'none' });
      }
    } finally {
      if (previewRef.current === controller) previewRef.current = null;
    }
  }

  function resetFile() {
    previewRef.current?.abort();
    if (fileRef.current) fileRef.current.value = '';
    setCsv({ kind: 'none' });
  }

  async function onImport() {
    if (csv.kind !== 'previewed' || importing) return;
    setImporting(true);
    try {
      const result = await importCsv(csv.file);
      toast.success(importedMessage(result));
      resetFile();
      onImported();
    } catch (error) {
      if (error instanceof CsvError) {
        toast.error(error.message);
        setCsv({ kind: 'refused', file: csv.file, message: error.message, errors: error.errors, errorCount: error.errorCount });
      } else if (isApiError(error) && error.status === 400) {
        toast.error(error.message);
      } else {
        toastWriteError(error);
      }
    } finally {
      setImporting(false);
    }
  }

  return { csv, importing, fileRef, onFileChange, onImport };
}

export function PlanningImportModal({ onClose }: { onClose: () => void }) {
  const [status, setStatus] = useState<StatusState>({ kind: 'loading' });
  const { csv, importing, fileRef, onFileChange, onImport } = useCsvImport(() => loadStatus());
  const ids = useId();

  function loadStatus(signal?: AbortSignal) {
    fetchPlanningStatus(signal)
      .then((answer) => setStatus({ kind: 'loaded', status: answer }))
      .catch((error: unknown) => {
        if (signal?.aborted) return;
        toastReadError(error);
        setStatus({ kind: 'failed' });
      });
  }

  useEffect(() => {
    const controller = new AbortController();
    loadStatus(controller.signal);
    return () => controller.abort();
  }, []);

  const preview = csv.kind === 'previewed' ? csv.preview : null;
  const errors = csv.kind === 'previewed' ? csv.preview.errors : csv.kind === 'refused' ? csv.errors : [];
  const errorCount = Math.max(
    errors.length,
    csv.kind === 'previewed' ? csv.preview.errorCount : csv.kind === 'refused' ? csv.errorCount : 0,
  );
  const mayImport = preview !== null && errorCount === 0 && preview.count > 0 && !importing;

  return (
    <Modal
      title={PLANNING_TITLE}
      onClose={onClose}
      size="lg"
      testId="planning-import-modal"
      closeDisabled={importing}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={importing}>
            Schließen
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void onImport()}
            disabled={!mayImport}
            data-testid="csv-import"
          >
            {importing ? (
              <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            ) : (
              <i className="bi bi-box-arrow-in-down me-1" aria-hidden="true" />
            )}
            Importieren
          </button>
        </>
      }
    >
      <PlanningStatusSection ids={ids} status={status} />

      <OpenEditorSection ids={ids} />

      <section aria-labelledby={`${ids}-csv-title`}>
        <h3 className="h6" id={`${ids}-csv-title`}>
          CSV-Datei importieren
        </h3>
        <p className="small mb-2" id={`${ids}-csv-help`}>
          Eine Zeile je Kontakt, durch Semikolon getrennt, mit dieser Kopfzeile (Spalten in beliebiger Reihenfolge):{' '}
          <code className="ap-csv-columns">{CSV_COLUMNS}</code>. Anrede: Firma, Herr, Frau, Divers oder 0–4. Zeichensatz UTF-8
          oder Windows-1252, höchstens 5 MiB. Die Kontakte erscheinen als Import-Kandidaten im Editor ihrer Kundennummer; ein
          erneuter Import ersetzt die Kandidaten der Kundennummern in der Datei. Eine Datei mit fehlerhaften Zeilen wird nicht
          importiert.
        </p>
        <div className="mb-3">
          <label htmlFor={`${ids}-file`} className="form-label">
            CSV-Datei
          </label>
          <input
            ref={fileRef}
            id={`${ids}-file`}
            type="file"
            accept=".csv,text/csv"
            className="form-control"
            onChange={(event) => void onFileChange(event)}
            disabled={importing}
            aria-describedby={`${ids}-csv-help`}
            data-testid="csv-file"
          />
        </div>

        {csv.kind === 'checking' && (
          <p className="text-body-secondary" role="status">
            <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            Datei wird geprüft …
          </p>
        )}

        {csv.kind === 'refused' && (
          <div className="alert alert-danger" role="alert" data-testid="csv-refused">
            {csv.message}
          </div>
        )}

        {preview && <CsvPreviewView preview={preview} errorCount={errorCount} />}

        {errors.length > 0 && <CsvErrorList errors={errors} errorCount={errorCount} />}
      </section>
    </Modal>
  );
}
