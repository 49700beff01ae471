// The rows of the contact editor's sections: a contact with its four fields (active and new
// contacts), an import candidate, and a contact to be removed. Every field has a label (hidden,
// the column header shows it), its message below it via aria-describedby, and aria-invalid.
import type { ReactNode } from 'react';
import type { FieldName } from './editorState';
import { salutationLabel, SALUTATIONS } from './messages';
import type { ContactFields, ImportCandidate } from './types';

const LABELS: Record<FieldName, string> = {
  salutation: 'Anrede',
  firstname: 'Vorname',
  lastname: 'Nachname',
  email: 'E-Mail',
};

export function ContactTableHead({ actions = 'Aktionen' }: { actions?: string }) {
  return (
    <thead>
      <tr>
        <th scope="col" className="ap-col-salutation">
          Anrede
        </th>
        <th scope="col">Vorname</th>
        <th scope="col">Nachname</th>
        <th scope="col">E-Mail</th>
        <th scope="col" className="text-end">
          {actions}
        </th>
      </tr>
    </thead>
  );
}

export interface ContactFieldsRowProps {
  /** Unique within the page: the element ids derive from it. */
  idPrefix: string;
  rowKey: string;
  fields: ContactFields;
  /** The message shown at each field (null: none). */
  errors: Partial<Record<FieldName, string | null>>;
  /** The server is checking the email. */
  checking: boolean;
  /** Salutation and names can only be read (BU-DOI, spec §6). */
  namesReadOnly: boolean;
  onChange: (field: FieldName, value: string) => void;
  /** Badges after the email. */
  badges?: ReactNode;
  actions: ReactNode;
  testId: string;
  data?: Record<`data-${string}`, string>;
}

export function ContactFieldsRow({
  idPrefix,
  rowKey,
  fields,
  errors,
  checking,
  namesReadOnly,
  onChange,
  badges,
  actions,
  testId,
  data,
}: ContactFieldsRowProps) {
  const id = (field: FieldName) => `${idPrefix}-${rowKey}-${field}`;

  function message(field: FieldName, hint?: ReactNode) {
    const text = errors[field];
    if (text) {
      return (
        <div id={`${id(field)}-error`} className="invalid-feedback d-block" data-testid={`error-${field}`}>
          {text}
        </div>
      );
    }
    return hint ?? null;
  }

  function described(field: FieldName): string | undefined {
    return errors[field] ? `${id(field)}-error` : undefined;
  }

  function textField(field: 'firstname' | 'lastname' | 'email', type: 'text' | 'email', readOnly: boolean) {
    const invalid = Boolean(errors[field]);
    return (
      <>
        <label htmlFor={id(field)} className="visually-hidden">
          {LABELS[field]}
        </label>
        <input
          id={id(field)}
          type={type}
          className={`form-control form-control-sm${invalid ? ' is-invalid' : ''}`}
          value={fields[field]}
          readOnly={readOnly}
          required
          maxLength={field === 'email' ? 254 : 100}
          autoComplete="off"
          aria-invalid={invalid}
          aria-describedby={described(field) ?? (field === 'email' && checking ? `${id(field)}-checking` : undefined)}
          onChange={(event) => onChange(field, event.target.value)}
          data-field={field}
        />
      </>
    );
  }

  const salutationInvalid = Boolean(errors.salutation);

  return (
    <tr data-testid={testId} data-row-key={rowKey} {...data}>
      <td>
        <label htmlFor={id('salutation')} className="visually-hidden">
          Anrede
        </label>
        {namesReadOnly ? (
          <input
            id={id('salutation')}
            type="text"
            className="form-control form-control-sm"
            value={salutationLabel(fields.salutation)}
            readOnly
            data-field="salutation"
          />
        ) : (
          <select
            id={id('salutation')}
            className={`form-select form-select-sm${salutationInvalid ? ' is-invalid' : ''}`}
            value={fields.salutation === null ? '' : String(fields.salutation)}
            required
            aria-invalid={salutationInvalid}
            aria-describedby={described('salutation')}
            onChange={(event) => onChange('salutation', event.target.value)}
            data-field="salutation"
          >
            <option value="">Anrede wählen</option>
            {SALUTATIONS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        )}
        {message('salutation')}
      </td>
      <td>
        {textField('firstname', 'text', namesReadOnly)}
        {message('firstname')}
      </td>
      <td>
        {textField('lastname', 'text', namesReadOnly)}
        {message('lastname')}
      </td>
      <td>
        {textField('email', 'email', false)}
        {message(
          'email',
          checking ? (
            // Only for screen readers: a line appearing for a moment would move what is below.
            <div id={`${id('email')}-checking`} className="visually-hidden" data-testid="email-checking">
              E-Mail wird geprüft …
            </div>
          ) : null,
        )}
        {badges && <div className="mt-1">{badges}</div>}
      </td>
      <td className="text-end text-nowrap">{actions}</td>
    </tr>
  );
}

export interface CandidateRowProps {
  rowKey: string;
  candidate: ImportCandidate;
  onTake: () => void;
}

export function CandidateRow({ rowKey, candidate, onTake }: CandidateRowProps) {
  const name = `${candidate.firstname} ${candidate.lastname}`.trim();
  const elsewhere = candidate.existingCustomerNumber;
  return (
    <tr data-testid="candidate" data-row-key={rowKey} data-email={candidate.email}>
      <td>{salutationLabel(candidate.salutation)}</td>
      <td>{candidate.firstname}</td>
      <td>{candidate.lastname}</td>
      <td>
        <span className="text-break">{candidate.email}</span>
        <div className="small text-body-secondary">
          {candidate.source === 'csv' ? 'aus CSV-Import' : 'aus dem Planungssystem'}
          {candidate.companyName ? ` · ${candidate.companyName}` : ''}
        </div>
        {elsewhere !== null && (
          <div className="small text-danger" data-testid="candidate-elsewhere">
            Bereits unter der Kundennummer {elsewhere} registriert.
          </div>
        )}
      </td>
      <td className="text-end">
        <button
          type="button"
          className="btn btn-sm btn-outline-primary text-nowrap"
          onClick={onTake}
          disabled={elsewhere !== null}
          aria-label={`${name || candidate.email} als neuen Kontakt übernehmen`}
          data-testid="take-candidate"
          data-field="take"
        >
          <i className="bi bi-person-plus me-1" aria-hidden="true" />
          Übernehmen
        </button>
      </td>
    </tr>
  );
}

export interface RemovedRowProps {
  rowKey: string;
  fields: ContactFields;
  email: string;
  onRestore: () => void;
}

export function RemovedRow({ rowKey, fields, email, onRestore }: RemovedRowProps) {
  return (
    <tr data-testid="removed-contact" data-row-key={rowKey} data-email={email}>
      <td>{salutationLabel(fields.salutation)}</td>
      <td>{fields.firstname}</td>
      <td>{fields.lastname}</td>
      <td className="text-break">{email}</td>
      <td className="text-end">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary text-nowrap"
          onClick={onRestore}
          aria-label={`${email} wiederherstellen`}
          data-testid="restore-contact"
          data-field="restore"
        >
          <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
          Wiederherstellen
        </button>
      </td>
    </tr>
  );
}
