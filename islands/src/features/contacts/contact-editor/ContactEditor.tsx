// The contact editor: /admin/contact/edit/{customerNumber} (spec §2 "Contact edit", §3
// "Customer group", §4 "Contact editing", §5 "Contact edit", §6). It loads the customer group
// (contacts and import candidates of the planning system), lets the user edit, add, take over
// and remove contacts and choose the group's criteria, and saves everything with one PUT.
import { useEffect, useId, useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { isApiError } from '../../../lib/api';
import { toastReadError, toastWriteError } from '../../../lib/apiToasts';
import { toast } from '../../../lib/toast';
import { eraseContact, fetchGroup, fetchListsOfContacts, saveGroup, toggleBlacklist } from './api';
import { ConsentNote } from './ConsentNote';
import { CandidateRow, ContactFieldsRow, ContactTableHead, RemovedRow } from './ContactRows';
import { CriteriaPicker } from './CriteriaPicker';
import {
  editorReducer,
  initialEditorState,
  normalizeEmail,
  toGroupInput,
} from './editorState';
import type { ExistingRow, FieldName, NewRow } from './editorState';
import {
  blockUpdatedMessage,
  createQuestion,
  CREATED_MESSAGE,
  deleteQuestion,
  PLACEHOLDER_COMPANY,
  PLACEHOLDER_CUSTOMER_NUMBER,
  UPDATED_MESSAGE,
  ERASE_LABEL,
  ERASURE_REMOVES,
} from './messages';
import type { Contact, ListRef, ProviderRef } from './types';
import { useEmailChecks } from './useEmailChecks';
import { fieldKey, isValidEmail, rowsNeedingCheck, validateEditor } from './validation';
import type { EditorError } from './validation';

export const CONTACTS_PATH = '/admin/contacts';
const LOAD_FAILED = 'Die Kontakte konnten nicht geladen werden.';
const LOGIN_CODES: ReadonlySet<string> = new Set(['not_logged_in', 'unauthorized_login']);

export interface ContactEditorProps {
  /** The customer number as the address has it (raw path text). */
  customerNumber: string;
  permissions?: {
    /** Admin or BU-Moderator: names, removing, blocking, criteria. false means BU-DOI. */
    editDetails?: boolean;
    /** The criteria picker's reset (spec §6). */
    admin?: boolean;
  };
  /** The providers whose lists the criteria picker shows. */
  providers?: ProviderRef[];
  /** Where "Zurück" leads: the contacts list, or the start page for BU-DOI (no admin area). */
  backPath?: string;
}

type FocusTarget = { rowKey: string; field: string } | { selector: string };

const NO_PROVIDERS: ProviderRef[] = [];

function selectorOf(target: FocusTarget): string {
  return 'selector' in target ? target.selector : `[data-row-key="${target.rowKey}"] [data-field="${target.field}"]`;
}

function parseNumber(raw: string): number | null {
  const text = String(raw ?? '').trim();
  return /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

/** A failed save: the server's German message (spec §8); network failures are only logged. */
function toastSaveError(error: unknown): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  if (!isApiError(error) || error.status === 0) {
    console.error('[contact-editor] save failed', error);
    return;
  }
  if (error.status === 401 || (error.code !== null && LOGIN_CODES.has(error.code))) return;
  toast.error(error.message);
}

function fullName(fields: { firstname: string; lastname: string; email: string }): string {
  return `${fields.firstname} ${fields.lastname}`.trim() || fields.email;
}

export default function ContactEditor({
  customerNumber,
  permissions,
  providers,
  backPath = CONTACTS_PATH,
}: ContactEditorProps) {
  const mayEditDetails = permissions?.editDetails === true;
  const isAdmin = permissions?.admin === true;
  const providerList = providers ?? NO_PROVIDERS;
  const fallbackNumber = parseNumber(customerNumber);

  const [state, dispatch] = useReducer(editorReducer, undefined, initialEditorState);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const [checkingBeforeSave, setCheckingBeforeSave] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [confirm, setConfirm] = useState<'create' | 'delete' | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [listNames, setListNames] = useState<Readonly<Record<number, ListRef>>>({});
  const [blocking, setBlocking] = useState<ReadonlySet<number>>(() => new Set());
  const [erasing, setErasing] = useState<Contact | null>(null);
  const [erasureBusy, setErasureBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const checks = useEmailChecks();
  const focusRef = useRef<FocusTarget | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const ids = useId();

  function rememberListNames(lists: readonly ListRef[]) {
    if (lists.length === 0) return;
    setListNames((current) => {
      const next = { ...current };
      for (const list of lists) next[list.id] = { ...next[list.id], ...list };
      return next;
    });
  }

  /** The names of the group's lists (also of providers the picker does not show). */
  function loadListNames(contacts: readonly Contact[], signal?: AbortSignal) {
    fetchListsOfContacts(
      contacts.map((c) => c.id),
      signal,
    )
      .then(rememberListNames)
      .catch((error: unknown) => {
        if (!signal?.aborted) console.error('[contact-editor] lists of the group', error);
      });
  }

  useEffect(() => {
    const controller = new AbortController();
    fetchGroup(customerNumber, controller.signal)
      .then((group) => {
        dispatch({ type: 'load', group, customerNumber: fallbackNumber });
        setLoadError(null);
        setLoading(false);
        loadListNames(group.content ?? [], controller.signal);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        if (isApiError(error) && (error.status === 400 || error.status === 404)) {
          setLoadError(error.message);
        } else {
          toastReadError(error);
          setLoadError(LOAD_FAILED);
        }
      });
    return () => controller.abort();
    // loadListNames only sets state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [customerNumber, fallbackNumber, attempt]);

  // Focus follows a contact that moved to another section (and goes to the first error).
  useEffect(() => {
    const target = focusRef.current;
    if (!target) return;
    focusRef.current = null;
    const form = formRef.current;
    if (!form) return;
    form.querySelector<HTMLElement>(selectorOf(target))?.focus();
  });

  // Clashes (an email twice, or another customer's) show as they arise; missing or malformed
  // input only after a save attempt, and from then on as it is fixed. Nothing appears on blur:
  // a message showing up then would move the save button away from under a click.
  const errors = validateEditor(state, { emailChecks: checks.results, criteriaRequired: mayEditDetails });
  const shownErrors = new Map<string, EditorError>();
  let companyError: string | null = null;
  let listsError: string | null = null;
  for (const error of errors) {
    const { target } = error;
    if (target.rowKey !== null) {
      const key = fieldKey(target.rowKey, target.field);
      if (!shownErrors.has(key) && (error.conflict || submitted)) shownErrors.set(key, error);
    } else if (target.field === 'company' && submitted) {
      companyError ??= error.message;
    } else if (target.field === 'lists' && submitted) {
      listsError ??= error.message;
    }
  }
  const checkedRows = new Map(rowsNeedingCheck(state).map((row) => [row.rowKey, row.email]));

  function rowErrors(rowKey: string): Partial<Record<FieldName, string | null>> {
    const result: Partial<Record<FieldName, string | null>> = {};
    for (const field of ['salutation', 'firstname', 'lastname', 'email'] as const) {
      result[field] = shownErrors.get(fieldKey(rowKey, field))?.message ?? null;
    }
    return result;
  }

  function isChecking(rowKey: string): boolean {
    const email = checkedRows.get(rowKey);
    return email !== undefined && checks.results[email]?.state === 'checking';
  }

  /** Starts (or stops) the row's debounced server check for its email. */
  function scheduleCheck(rowKey: string, value: string, unchangedEmail: string | null) {
    const email = normalizeEmail(value);
    checks.schedule(rowKey, isValidEmail(value) && email !== unchangedEmail ? email : null);
  }

  /** Focuses the target after the next render (it may not exist yet). */
  function focusLater(target: FocusTarget) {
    focusRef.current = target;
  }

  function focusNow(target: FocusTarget) {
    formRef.current?.querySelector<HTMLElement>(selectorOf(target))?.focus();
  }

  // ---------------------------------------------------------------------------------------------
  // Moving contacts between the sections

  function onRemove(row: ExistingRow) {
    checks.schedule(row.key, null);
    dispatch({ type: 'remove', key: row.key });
    focusLater({ rowKey: row.key, field: 'restore' });
    setAnnouncement(`${row.contact.email} wird beim Speichern entfernt.`);
  }

  function onRestore(row: ExistingRow) {
    dispatch({ type: 'restore', key: row.key });
    focusLater({ rowKey: row.key, field: mayEditDetails ? 'remove' : 'email' });
    setAnnouncement(`${row.contact.email} wiederhergestellt.`);
  }

  function onAddNew() {
    const key = `n${state.nextKey}`;
    dispatch({ type: 'addNew' });
    focusLater({ rowKey: key, field: 'salutation' });
  }

  function onDiscardNew(row: NewRow) {
    checks.schedule(row.key, null);
    dispatch({ type: 'discardNew', key: row.key });
    if (row.candidateKey !== null) {
      focusLater({ rowKey: row.candidateKey, field: 'take' });
      setAnnouncement(`${fullName(row.fields)} ist wieder ein Importkandidat.`);
    } else {
      focusLater({ selector: '[data-testid="add-contact"]' });
      setAnnouncement('Neuer Kontakt entfernt.');
    }
  }

  function onTakeCandidate(key: string) {
    const entry = state.candidates.find((c) => c.key === key);
    if (!entry) return;
    const rowKey = `n${state.nextKey}`;
    dispatch({ type: 'takeCandidate', key });
    scheduleCheck(rowKey, entry.candidate.email, null);
    focusLater({ rowKey, field: 'salutation' });
    setAnnouncement(`${fullName(entry.candidate)} wird als neuer Kontakt angelegt.`);
  }

  async function onToggleBlock(row: ExistingRow) {
    const id = row.contact.id;
    if (blocking.has(id)) return;
    setBlocking((current) => new Set(current).add(id));
    try {
      const updated = await toggleBlacklist(id);
      dispatch({ type: 'contactUpdated', contact: updated });
      toast.success(blockUpdatedMessage(updated.email));
    } catch (error) {
      toastWriteError(error);
    } finally {
      setBlocking((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    }
  }

  /** Erases the contact in question for good; the last one of the group leads back to the list. */
  async function onErase() {
    if (erasing === null || erasureBusy) return;
    setErasureBusy(true);
    try {
      const report = await eraseContact(erasing.id);
      toast.success(report.message);
      const left = state.active.filter((row) => row.contact.id !== erasing.id).length + state.removed.length;
      dispatch({ type: 'contactErased', id: erasing.id });
      setErasing(null);
      if (left === 0 && state.fresh.length === 0) window.location.assign(CONTACTS_PATH);
      else focusNow({ selector: '[data-testid="add-contact"]' });
    } catch (error) {
      // Brevo refused or was away: its German message says that nothing was erased.
      if (isApiError(error) && error.status === 502) toast.error(error.message);
      else toastWriteError(error);
    } finally {
      setErasureBusy(false);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Saving

  function focusError(error: EditorError) {
    const { target } = error;
    if (target.rowKey !== null) focusNow({ rowKey: target.rowKey, field: target.field });
    else if (target.field === 'company') focusNow({ selector: '[data-testid="company-input"]' });
    else if (target.field === 'lists') focusNow({ selector: '[data-testid="open-criteria"]' });
    else focusNow({ selector: '[data-testid="add-contact"]' });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || checkingBeforeSave || !state.loaded) return;
    setSubmitted(true);
    // Emails whose debounced check has not answered yet are checked now.
    const emails = rowsNeedingCheck(state).map((row) => row.email);
    let results = checks.results;
    if (emails.some((email) => results[email]?.state !== 'done')) {
      setCheckingBeforeSave(true);
      try {
        results = await checks.checkNow(emails);
      } finally {
        setCheckingBeforeSave(false);
      }
    }
    const first = validateEditor(state, { emailChecks: results, criteriaRequired: mayEditDetails })[0];
    if (first) {
      toast.error(first.message, first.detail);
      focusError(first);
      return;
    }
    if (state.fresh.length > 0) setConfirm('create');
    else if (state.removed.length > 0) setConfirm('delete');
    else void save();
  }

  async function save() {
    const number = state.customerNumber ?? fallbackNumber;
    if (number === null || saving) return;
    const creating = state.creating;
    setSaving(true);
    try {
      const group = await saveGroup(number, toGroupInput(state, number));
      dispatch({ type: 'load', group, customerNumber: number });
      checks.reset();
      setSubmitted(false);
      loadListNames(group.content ?? []);
      toast.success(creating ? CREATED_MESSAGE : UPDATED_MESSAGE);
    } catch (error) {
      toastSaveError(error);
    } finally {
      setSaving(false);
      setConfirm(null);
    }
  }

  // ---------------------------------------------------------------------------------------------

  const shownNumber = state.loaded ? (state.customerNumber ?? customerNumber) : PLACEHOLDER_CUSTOMER_NUMBER;
  const shownCompany = state.loaded ? state.companyName : PLACEHOLDER_COMPANY;
  const openCandidates = state.candidates.filter((c) => !c.taken);
  const busy = saving || checkingBeforeSave;
  const ready = state.loaded && loadError === null;

  return (
    <form
      ref={formRef}
      className="ap-contact-editor"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-busy={loading || busy}
      data-testid="contact-editor"
      data-loaded={String(ready)}
    >
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>

      <div className="card mb-4">
        <div className="card-body">
          <div className="row g-3 align-items-start">
            <div className="col-sm-4 col-lg-3">
              <div className="form-label fw-semibold mb-1" id={`${ids}-number-label`}>
                Kundennummer
              </div>
              <div aria-labelledby={`${ids}-number-label`} data-testid="customer-number">
                {shownNumber}
              </div>
            </div>
            <div className="col-sm-8 col-lg-6">
              {state.companyEditable ? (
                <>
                  <label htmlFor={`${ids}-company`} className="form-label fw-semibold mb-1">
                    Firma
                  </label>
                  <input
                    id={`${ids}-company`}
                    type="text"
                    className={`form-control${companyError ? ' is-invalid' : ''}`}
                    value={state.companyName}
                    required
                    maxLength={100}
                    aria-invalid={Boolean(companyError)}
                    aria-describedby={companyError ? `${ids}-company-error` : `${ids}-company-hint`}
                    onChange={(event) => dispatch({ type: 'setCompany', value: event.target.value })}
                    data-testid="company-input"
                  />
                  {companyError ? (
                    <div id={`${ids}-company-error`} className="invalid-feedback d-block">
                      {companyError}
                    </div>
                  ) : (
                    <div id={`${ids}-company-hint`} className="form-text">
                      Zu dieser Kundennummer gibt es noch keine Kontakte: die Kundengruppe wird neu angelegt.
                    </div>
                  )}
                </>
              ) : (
                <>
                  <div className="form-label fw-semibold mb-1" id={`${ids}-company-label`}>
                    Firma
                  </div>
                  <div aria-labelledby={`${ids}-company-label`} className="text-break" data-testid="company-name">
                    {shownCompany}
                  </div>
                </>
              )}
            </div>
          </div>
        </div>
      </div>

      {loading && (
        <p className="text-body-secondary" role="status" data-testid="editor-loading">
          <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
          Kontakte werden geladen …
        </p>
      )}

      {loadError !== null && (
        <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert" data-testid="load-error">
          <span className="me-auto">{loadError}</span>
          {loadError === LOAD_FAILED && (
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              onClick={() => {
                setLoading(true);
                setLoadError(null);
                setAttempt((n) => n + 1);
              }}
            >
              Erneut versuchen
            </button>
          )}
        </div>
      )}

      {ready && (
        <>
          <section className="mb-4" aria-labelledby={`${ids}-criteria`} data-testid="criteria-section">
            <h2 id={`${ids}-criteria`} className="h5">
              Kriterien
            </h2>
            <button
              type="button"
              className={`btn btn-outline-primary${listsError ? ' border-danger' : ''}`}
              onClick={() => setPickerOpen(true)}
              disabled={!mayEditDetails}
              aria-describedby={listsError ? `${ids}-lists-error` : undefined}
              data-testid="open-criteria"
            >
              <i className="bi bi-list-check me-1" aria-hidden="true" />
              Kriterien auswählen (<span data-testid="criteria-count">{state.lists.length}</span>)
            </button>
            {listsError && (
              <div id={`${ids}-lists-error`} className="invalid-feedback d-block" data-testid="lists-error">
                {listsError}
              </div>
            )}
            <div className="form-text">
              {mayEditDetails
                ? 'Alle Kontakte der Kundengruppe erhalten die ausgewählten Kriterien.'
                : 'Kriterien können nur Administratoren und BU-Moderatoren ändern; neue Kontakte erhalten die Kriterien der Kundengruppe.'}
            </div>
            {state.lists.length > 0 && (
              <ul className="list-inline mt-2 mb-0" aria-label="Ausgewählte Kriterien" data-testid="chosen-criteria">
                {state.lists.map((id) => {
                  const list = listNames[id];
                  const inactive = list?.active === false;
                  return (
                    <li key={id} className="list-inline-item mb-1" data-list-id={id}>
                      <span className="badge text-bg-light border fw-normal">
                        <span className={inactive ? 'text-decoration-line-through' : undefined}>
                          {list?.name ?? `Kriterium ${id}`}
                        </span>
                        {list?.providerName ? <span className="text-body-secondary"> · {list.providerName}</span> : null}
                        {inactive && <span className="visually-hidden"> (archiviert)</span>}
                      </span>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>

          <section className="mb-4" aria-labelledby={`${ids}-active`} data-testid="active-section">
            <h2 id={`${ids}-active`} className="h5">
              Aktive Kontakte <span className="badge text-bg-secondary">{state.active.length}</span>
            </h2>
            {state.active.length === 0 ? (
              <p className="text-body-secondary" data-testid="active-empty">
                Zu dieser Kundennummer gibt es noch keine Kontakte.
              </p>
            ) : (
              <div className="table-responsive">
                <table className="table ap-contact-table" aria-labelledby={`${ids}-active`}>
                  <ContactTableHead />
                  <tbody>
                    {state.active.map((row) => (
                      <ContactFieldsRow
                        key={row.key}
                        idPrefix={ids}
                        rowKey={row.key}
                        fields={row.fields}
                        errors={rowErrors(row.key)}
                        checking={isChecking(row.key)}
                        namesReadOnly={!mayEditDetails}
                        onChange={(field, value) => {
                          dispatch({ type: 'editExisting', key: row.key, field, value });
                          if (field === 'email') scheduleCheck(row.key, value, normalizeEmail(row.contact.email));
                        }}
                        testId="active-contact"
                        data={{ 'data-contact-id': String(row.contact.id), 'data-email': row.contact.email }}
                        badges={
                          <>
                            {row.contact.emailBlacklisted && (
                              <span className="badge text-bg-danger me-1" data-testid="badge-blocked">
                                Gesperrt
                              </span>
                            )}
                            {!row.contact.doubleOptIn && (
                              <span className="badge text-bg-warning" data-testid="badge-pending">
                                DOI ausstehend
                              </span>
                            )}
                            <ConsentNote consent={row.contact.consent} />
                          </>
                        }
                        actions={
                          mayEditDetails ? (
                            <>
                              {permissions?.admin === true && (
                                <a
                                  className="btn btn-sm btn-outline-secondary me-1"
                                  href={`/api/contacts/${row.contact.id}/export`}
                                  download={`Kontakt-${row.contact.id}.json`}
                                  aria-label={`${row.contact.email}: Daten exportieren`}
                                  title="Daten exportieren"
                                  data-testid="export-contact"
                                >
                                  <i className="bi bi-file-earmark-arrow-down" aria-hidden="true" />
                                </a>
                              )}
                              {permissions?.admin === true && (
                                <button
                                  type="button"
                                  className="btn btn-sm btn-outline-danger me-1"
                                  onClick={() => setErasing(row.contact)}
                                  aria-label={`${row.contact.email}: ${ERASE_LABEL}`}
                                  title={ERASE_LABEL}
                                  data-testid="erase-contact"
                                >
                                  <i className="bi bi-shield-x" aria-hidden="true" />
                                </button>
                              )}
                              <button
                                type="button"
                                className="btn btn-sm btn-outline-secondary me-1"
                                onClick={() => void onToggleBlock(row)}
                                disabled={blocking.has(row.contact.id)}
                                aria-label={`${row.contact.email} ${row.contact.emailBlacklisted ? 'entsperren' : 'sperren'}`}
                                title={row.contact.emailBlacklisted ? 'Entsperren' : 'Sperren'}
                                data-testid="toggle-block"
                              >
                                <i
                                  className={`bi ${row.contact.emailBlacklisted ? 'bi-unlock' : 'bi-lock'}`}
                                  aria-hidden="true"
                                />
                              </button>
                              <button
                                type="button"
                                className="btn btn-sm btn-outline-danger"
                                onClick={() => onRemove(row)}
                                aria-label={`${row.contact.email} entfernen`}
                                title="Entfernen"
                                data-testid="remove-contact"
                                data-field="remove"
                              >
                                <i className="bi bi-person-dash" aria-hidden="true" />
                              </button>
                            </>
                          ) : null
                        }
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>

          <section className="mb-4" aria-labelledby={`${ids}-new`} data-testid="new-section">
            <h2 id={`${ids}-new`} className="h5">
              Neue Kontakte <span className="badge text-bg-secondary">{state.fresh.length}</span>
            </h2>
            {state.fresh.length > 0 && (
              <div className="table-responsive">
                <table className="table ap-contact-table" aria-labelledby={`${ids}-new`}>
                  <ContactTableHead />
                  <tbody>
                    {state.fresh.map((row, index) => (
                      <ContactFieldsRow
                        key={row.key}
                        idPrefix={ids}
                        rowKey={row.key}
                        fields={row.fields}
                        errors={rowErrors(row.key)}
                        checking={isChecking(row.key)}
                        namesReadOnly={false}
                        onChange={(field, value) => {
                          dispatch({ type: 'editNew', key: row.key, field, value });
                          if (field === 'email') scheduleCheck(row.key, value, null);
                        }}
                        testId="new-contact"
                        data={{ 'data-origin': row.candidateKey === null ? 'manual' : 'candidate' }}
                        badges={
                          row.candidateKey !== null ? (
                            <span className="badge text-bg-info" data-testid="badge-candidate">
                              aus der Planung
                            </span>
                          ) : null
                        }
                        actions={
                          <button
                            type="button"
                            className="btn btn-sm btn-outline-danger"
                            onClick={() => onDiscardNew(row)}
                            aria-label={`Neuen Kontakt ${index + 1} entfernen`}
                            title="Entfernen"
                            data-testid="discard-contact"
                          >
                            <i className="bi bi-x-lg" aria-hidden="true" />
                          </button>
                        }
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <button type="button" className="btn btn-outline-primary" onClick={onAddNew} data-testid="add-contact">
              <i className="bi bi-plus-lg me-1" aria-hidden="true" />
              Kontakt hinzufügen
            </button>
          </section>

          <section className="mb-4" aria-labelledby={`${ids}-imports`} data-testid="imports-section">
            <h2 id={`${ids}-imports`} className="h5">
              Importkandidaten aus der Planung <span className="badge text-bg-secondary">{openCandidates.length}</span>
            </h2>
            {state.message && (
              <div className="alert alert-info" role="status" data-testid="imports-message">
                <i className="bi bi-info-circle me-2" aria-hidden="true" />
                {state.message}
              </div>
            )}
            {openCandidates.length === 0 ? (
              <p className="text-body-secondary" data-testid="candidates-empty">
                Keine Importkandidaten vorhanden.
              </p>
            ) : (
              <div className="table-responsive">
                <table className="table ap-contact-table" aria-labelledby={`${ids}-imports`}>
                  <ContactTableHead />
                  <tbody>
                    {openCandidates.map((entry) => (
                      <CandidateRow
                        key={entry.key}
                        rowKey={entry.key}
                        candidate={entry.candidate}
                        onTake={() => onTakeCandidate(entry.key)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>

          <section className="mb-4" aria-labelledby={`${ids}-removed`} data-testid="removed-section">
            <h2 id={`${ids}-removed`} className="h5">
              Zu entfernende Kontakte <span className="badge text-bg-secondary">{state.removed.length}</span>
            </h2>
            {state.removed.length === 0 ? (
              <p className="text-body-secondary" data-testid="removed-empty">
                Keine Kontakte zum Entfernen vorgemerkt.
              </p>
            ) : (
              <div className="table-responsive">
                <table className="table ap-contact-table" aria-labelledby={`${ids}-removed`}>
                  <ContactTableHead />
                  <tbody>
                    {state.removed.map((row) => (
                      <RemovedRow
                        key={row.key}
                        rowKey={row.key}
                        fields={row.fields}
                        email={row.contact.email}
                        onRestore={() => onRestore(row)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}

      <div className="d-flex flex-wrap justify-content-between gap-2 mt-4">
        <a href={backPath} className="btn btn-outline-secondary" data-testid="back">
          <i className="bi bi-arrow-left me-1" aria-hidden="true" />
          Zurück zu den Kontakten
        </a>
        <button type="submit" className="btn btn-primary" disabled={!ready || busy} data-testid="submit">
          {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {state.creating ? 'Anlegen' : 'Aktualisieren'}
        </button>
      </div>

      {pickerOpen && (
        <CriteriaPicker
          providers={providerList}
          chosen={state.lists}
          original={state.originalLists}
          known={Object.values(listNames)}
          mayReset={isAdmin}
          onApply={(lists, loaded) => {
            rememberListNames(loaded);
            dispatch({ type: 'setLists', lists });
            setPickerOpen(false);
          }}
          onClose={() => setPickerOpen(false)}
        />
      )}
      {confirm === 'create' && (
        <ConfirmModal
          key="create"
          title="Neue Kontakte anlegen"
          confirmLabel="Anlegen"
          busy={saving}
          onConfirm={() => {
            if (state.removed.length > 0) setConfirm('delete');
            else void save();
          }}
          onClose={() => setConfirm(null)}
          testId="confirm-create-modal"
          confirmTestId="confirm-create"
        >
          <p>{createQuestion(state.fresh.length)}</p>
          <ul className="mb-0">
            {state.fresh.map((row) => (
              <li key={row.key} className="text-break">
                {row.fields.email.trim()}
              </li>
            ))}
          </ul>
        </ConfirmModal>
      )}
      {erasing !== null && (
        <ConfirmModal
          key="erase"
          title={ERASE_LABEL}
          confirmLabel="Endgültig löschen"
          danger
          busy={erasureBusy}
          onConfirm={() => void onErase()}
          onClose={() => setErasing(null)}
          testId="confirm-erase-modal"
          confirmTestId="confirm-erase"
        >
          <p>
            <strong className="text-break">{erasing.email}</strong> wird endgültig gelöscht. Entfernt werden:
          </p>
          <ul>
            {ERASURE_REMOVES.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p className="mb-0">Das kann nicht rückgängig gemacht werden.</p>
        </ConfirmModal>
      )}
      {confirm === 'delete' && (
        <ConfirmModal
          key="delete"
          title="Kontakte löschen"
          confirmLabel="Löschen"
          danger
          busy={saving}
          onConfirm={() => void save()}
          onClose={() => setConfirm(null)}
          testId="confirm-delete-modal"
          confirmTestId="confirm-delete"
        >
          <p>{deleteQuestion(state.removed.length)}</p>
          <ul className="mb-0">
            {state.removed.map((row) => (
              <li key={row.key} className="text-break">
                {row.contact.email}
              </li>
            ))}
          </ul>
        </ConfirmModal>
      )}
    </form>
  );
}
