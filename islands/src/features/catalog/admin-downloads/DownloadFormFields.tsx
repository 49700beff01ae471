// The fields of the download form: name, provider and dates, the chosen criteria, and the form's back and submit buttons.
import type { Dispatch } from 'react';
import type { ProviderRef } from '../../../lib/downloads';
import type { DownloadFormState, FormAction } from './formState';

interface PackageFieldsProps {
  /** Prefix of the fields' ids. */
  ids: string;
  state: DownloadFormState;
  dispatch: Dispatch<FormAction>;
  providers: ProviderRef[];
  /** An edited package keeps its provider. */
  providerLocked: boolean;
}

/** Bezeichnung, Anbieter, Startdatum and Enddatum. */
export function PackageFields({ ids, state, dispatch, providers, providerLocked }: PackageFieldsProps) {
  return (
    <>
      <div className="col-12">
        <label htmlFor={`${ids}-name`} className="form-label">
          Bezeichnung
        </label>
        <textarea
          id={`${ids}-name`}
          className="form-control"
          rows={2}
          required
          value={state.name}
          onChange={(event) => dispatch({ type: 'setName', name: event.target.value })}
          data-testid="download-name"
        />
      </div>

      <div className="col-md-6">
        <label htmlFor={`${ids}-provider`} className="form-label">
          Anbieter
        </label>
        <select
          id={`${ids}-provider`}
          className="form-select"
          required
          value={state.providerId ?? ''}
          disabled={providerLocked}
          onChange={(event) =>
            dispatch({ type: 'setProvider', providerId: event.target.value === '' ? null : Number(event.target.value) })
          }
          data-testid="download-provider"
        >
          <option value="">Bitte Anbieter wählen</option>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="col-sm-6 col-md-3">
        <label htmlFor={`${ids}-start`} className="form-label">
          Startdatum
        </label>
        <input
          id={`${ids}-start`}
          type="date"
          className="form-control"
          required
          value={state.startAt}
          onChange={(event) => dispatch({ type: 'setStartAt', value: event.target.value })}
          data-testid="download-start"
        />
      </div>
      <div className="col-sm-6 col-md-3">
        <label htmlFor={`${ids}-end`} className="form-label">
          Enddatum
        </label>
        <input
          id={`${ids}-end`}
          type="date"
          className="form-control"
          required
          value={state.endAt}
          onChange={(event) => dispatch({ type: 'setEndAt', value: event.target.value })}
          data-testid="download-end"
        />
      </div>
    </>
  );
}

interface CriteriaFieldProps {
  ids: string;
  lists: DownloadFormState['lists'];
  /** The chosen provider, whose criteria can be picked. */
  provider: ProviderRef | null;
  onOpenPicker: () => void;
}

/** "Kriterien auswählen" with the chosen criteria as badges. */
export function CriteriaField({ ids, lists, provider, onOpenPicker }: CriteriaFieldProps) {
  return (
    <div className="col-12">
      <button
        type="button"
        className="btn btn-outline-primary"
        onClick={onOpenPicker}
        disabled={provider === null}
        aria-describedby={`${ids}-lists-hint`}
        data-testid="open-criteria"
      >
        <i className="bi bi-list-check me-1" aria-hidden="true" />
        Kriterien auswählen ({lists.length})
      </button>
      <div id={`${ids}-lists-hint`} className="form-text">
        {provider === null ? 'Bitte zuerst einen Anbieter wählen.' : `Kriterien von ${provider.name}`}
      </div>
      {lists.length > 0 && (
        <ul className="list-inline mt-2 mb-0" data-testid="chosen-criteria">
          {lists.map((list) => (
            <li key={list.id} className="list-inline-item">
              <span className={`badge text-bg-light border${list.active ? '' : ' text-decoration-line-through'}`}>
                {list.name}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface FormActionsProps {
  backPath: string;
  /** The form has unsaved changes: "Zurück" asks first. */
  dirty: boolean;
  onConfirmLeave: () => void;
  saving: boolean;
  editing: boolean;
}

/** "Zurück" and "Anlegen"/"Aktualisieren". */
export function FormActions({ backPath, dirty, onConfirmLeave, saving, editing }: FormActionsProps) {
  return (
    <div className="d-flex justify-content-between gap-2 mt-4">
      <a
        href={backPath}
        className="btn btn-outline-secondary"
        onClick={(event) => {
          if (!dirty) return;
          event.preventDefault();
          onConfirmLeave();
        }}
        data-testid="back"
      >
        <i className="bi bi-arrow-left me-1" aria-hidden="true" />
        Zurück
      </a>
      <button type="submit" className="btn btn-primary" disabled={saving} data-testid="submit">
        {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        {editing ? 'Aktualisieren' : 'Anlegen'}
      </button>
    </div>
  );
}
