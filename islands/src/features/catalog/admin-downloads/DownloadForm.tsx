// Create or edit a download package: /admin/download/add/ and /admin/download/edit/{id}
// (spec §2 "Download form", §5, §8). The form starts from the props; files upload as soon as
// they are dropped or picked, and the package is saved with their stored ids.
import { useEffect, useId, useReducer, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { createDownload, updateDownload } from '../../../lib/downloads';
import type { Download, ProviderRef, Tag, UploadRequirements } from '../../../lib/downloads';
import { navigateTo } from '../../../lib/navigate';
import { showAfterNavigation, toast } from '../../../lib/toast';
import { CriteriaPicker } from './CriteriaPicker';
import { FileDropZone } from './FileDropZone';
import { FileGroups } from './FileGroups';
import { formReducer, initialFormState, isUploading, toDownloadInput } from './formState';
import type { FileGroup } from './formState';
import { CREATED_MESSAGE, toastMutationError, UPDATED_MESSAGE } from './toasts';
import { useUploads } from './useUploads';
import { validatePackage } from './validation';

export const DOWNLOADS_PATH = '/admin/downloads';

export interface DownloadFormProps {
  mode: 'add' | 'edit';
  /** The package being edited (edit mode). */
  download: Download | null;
  /** The providers the user may choose (spec §6); an edited package's provider is one of them. */
  providers: ProviderRef[];
  requirements: UploadRequirements;
  tags: Tag[];
}

const ADD_GROUPS: readonly FileGroup[] = ['new'];
const EDIT_GROUPS: readonly FileGroup[] = ['new', 'existing', 'removed'];

export default function DownloadForm({ mode, download, providers, requirements, tags }: DownloadFormProps) {
  const editing = mode === 'edit' && download !== null;
  // The package as the server last answered it: what an edit is compared with.
  const [original, setOriginal] = useState<Download | null>(editing ? download : null);
  const [state, dispatch] = useReducer(formReducer, original, initialFormState);
  const [saving, setSaving] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const uploads = useUploads(requirements, dispatch);
  // Set once the page is left on purpose, so the unsaved-changes warning stays quiet.
  const leaving = useRef(false);
  const ids = useId();

  useEffect(() => {
    if (!state.dirty) return;
    function warn(event: BeforeUnloadEvent) {
      if (!leaving.current) event.preventDefault();
    }
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [state.dirty]);

  function leave() {
    leaving.current = true;
    navigateTo(DOWNLOADS_PATH);
  }

  const provider = providers.find((p) => p.id === state.providerId) ?? null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const problem = validatePackage({
      name: state.name,
      providerId: state.providerId,
      startAt: state.startAt,
      endAt: state.endAt,
      listCount: state.lists.length,
      uploading: isUploading(state),
    });
    if (problem) {
      toast.error(problem);
      return;
    }
    setSaving(true);
    const input = toDownloadInput(state, original);
    try {
      if (original) {
        // The answer is the package as the server now has it: the form starts over from it.
        const saved = await updateDownload(original.id, input);
        setOriginal(saved);
        dispatch({ type: 'load', download: saved });
        toast.success(UPDATED_MESSAGE);
        setSaving(false);
      } else {
        await createDownload(input);
        showAfterNavigation({ type: 'success', message: CREATED_MESSAGE });
        leave();
      }
    } catch (error) {
      toastMutationError(error);
      setSaving(false);
    }
  }

  return (
    <form className="ap-download-form" noValidate onSubmit={(event) => void onSubmit(event)} data-testid="download-form">
      <div className="row g-3">
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
            disabled={original !== null}
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

        <div className="col-12">
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => setPickerOpen(true)}
            disabled={provider === null}
            aria-describedby={`${ids}-lists-hint`}
            data-testid="open-criteria"
          >
            <i className="bi bi-list-check me-1" aria-hidden="true" />
            Kriterien auswählen ({state.lists.length})
          </button>
          <div id={`${ids}-lists-hint`} className="form-text">
            {provider === null ? 'Bitte zuerst einen Anbieter wählen.' : `Kriterien von ${provider.name}`}
          </div>
          {state.lists.length > 0 && (
            <ul className="list-inline mt-2 mb-0" data-testid="chosen-criteria">
              {state.lists.map((list) => (
                <li key={list.id} className="list-inline-item">
                  <span className={`badge text-bg-light border${list.active ? '' : ' text-decoration-line-through'}`}>
                    {list.name}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>

        <div className="col-12">
          <h2 className="h5">Dateien</h2>
          <FileDropZone requirements={requirements} onFiles={uploads.add} />
        </div>
        <div className="col-12">
          <FileGroups
            files={state.files}
            groups={original ? EDIT_GROUPS : ADD_GROUPS}
            tags={tags}
            dispatch={dispatch}
            onDiscard={(key) => {
              uploads.cancel(key);
              dispatch({ type: 'remove', key });
            }}
          />
        </div>
      </div>

      <div className="d-flex justify-content-between gap-2 mt-4">
        <a
          href={DOWNLOADS_PATH}
          className="btn btn-outline-secondary"
          onClick={(event) => {
            if (!state.dirty) return;
            event.preventDefault();
            setConfirmLeave(true);
          }}
          data-testid="back"
        >
          <i className="bi bi-arrow-left me-1" aria-hidden="true" />
          Zurück
        </a>
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="submit">
          {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {original ? 'Aktualisieren' : 'Anlegen'}
        </button>
      </div>

      {pickerOpen && provider && (
        <CriteriaPicker
          providerId={provider.id}
          providerName={provider.name}
          chosen={state.lists}
          onApply={(lists) => {
            dispatch({ type: 'setLists', lists });
            setPickerOpen(false);
          }}
          onClose={() => setPickerOpen(false)}
        />
      )}
      {confirmLeave && (
        <ConfirmModal
          title="Ungespeicherte Änderungen"
          confirmLabel="Verwerfen"
          danger
          onConfirm={leave}
          onClose={() => setConfirmLeave(false)}
          testId="leave-modal"
          confirmTestId="confirm-leave"
        >
          <p className="mb-0">Ihre Änderungen sind noch nicht gespeichert. Wollen Sie sie verwerfen und zurückgehen?</p>
        </ConfirmModal>
      )}
    </form>
  );
}
