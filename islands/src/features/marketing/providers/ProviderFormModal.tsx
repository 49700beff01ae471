// The provider form as a modal (spec §2 "Add-provider modal"): used by "Neuer Anbieter" in the
// admin menu (create) and by the settings button of the criteria screen (edit).
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, FormEvent, KeyboardEvent, RefObject } from 'react';
import { Modal } from '../../../components/Modal';
import { isApiError } from '../../../lib/api';
import { toastReadError, toastValidationOrWriteError, toastWriteError } from '../../../lib/apiToasts';
import { formatDate } from '../../../lib/format';
import { navigateTo } from '../../../lib/navigate';
import { showAfterNavigation, toast } from '../../../lib/toast';
import { createProvider, fetchAllFolders, updateProvider, uploadImage } from './api';
import type { Folder, FolderChoice, Provider, ProviderPayload, Upload } from './types';
import { uploadUrl } from './types';
import {
  firstError,
  FOLDERS_REQUIRED_MESSAGE,
  isFolderWarning,
  isImageFile,
  LOGO_TYPES,
  notAnImageMessage,
  validateNewRole,
  validateProviderForm,
} from './validation';
import type { ProviderFormErrors } from './validation';

export const CREATED_MESSAGE = 'Erfolgreich angelegt';
export const UPDATED_MESSAGE = 'Erfolgreich aktualisiert';

export interface ProviderFormModalProps {
  mode: 'create' | 'edit';
  /** The provider being edited (edit mode). */
  provider?: Provider | null;
  onClose: () => void;
  /** After each successful create (also when the modal stays open for the next one). */
  onCreated?: (provider: Provider) => void;
  /** After a successful edit, with the server's answer. */
  onSaved?: (provider: Provider) => void;
  /** Edit mode: shows "Anbieter löschen", which calls this. */
  onDelete?: () => void;
}

const NONE = 'none';
const AUTO = 'auto';

function choiceToValue(choice: FolderChoice): string {
  if (choice === null) return NONE;
  if (choice === 'auto') return AUTO;
  return String(choice);
}

function valueToChoice(value: string): FolderChoice {
  if (value === NONE) return null;
  if (value === AUTO) return 'auto';
  const id = Number(value);
  return Number.isInteger(id) ? id : null;
}

interface FolderSelectProps {
  id: string;
  label: string;
  value: FolderChoice;
  onChange: (choice: FolderChoice) => void;
  folders: readonly Folder[];
  loading: boolean;
  invalid: boolean;
  describedBy?: string;
  testId: string;
  selectRef?: RefObject<HTMLSelectElement | null>;
}

function FolderSelect({ id, label, value, onChange, folders, loading, invalid, describedBy, testId, selectRef }: FolderSelectProps) {
  const unknownId = typeof value === 'number' && !folders.some((folder) => folder.id === value) ? value : null;
  return (
    <div className="col-md-6">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select
        ref={selectRef}
        id={id}
        className={`form-select${invalid ? ' is-invalid' : ''}`}
        value={choiceToValue(value)}
        onChange={(event) => onChange(valueToChoice(event.target.value))}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-busy={loading || undefined}
        data-testid={testId}
      >
        <option value={NONE}>Keiner</option>
        <option value={AUTO}>Automatisch anlegen</option>
        {unknownId !== null && <option value={String(unknownId)}>{loading ? String(unknownId) : `${unknownId} – (nicht gefunden)`}</option>}
        {folders.map((folder) => (
          <option key={folder.id} value={String(folder.id)}>
            {`${folder.id} – ${folder.name}`}
          </option>
        ))}
      </select>
    </div>
  );
}

interface PreviewProps {
  name: string;
  upload: Upload | null;
  today: string;
}

/** How the provider will look in the downloads table. */
function ProviderPreview({ name, upload, today }: PreviewProps) {
  const shownName = name.trim() === '' ? 'Anbieter' : name.trim();
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0 ap-provider-preview" data-testid="provider-preview">
        <caption className="caption-top small">Vorschau in der Download-Tabelle</caption>
        <thead>
          <tr>
            <th scope="col">Anbieter</th>
            <th scope="col">Name</th>
            <th scope="col">Geändert am</th>
            <th scope="col">Endet am</th>
            <th scope="col">Downloads</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {upload ? (
                <img src={uploadUrl(upload.path)} alt={shownName} width={100} className="ap-provider-logo-preview" />
              ) : (
                <span className="fw-semibold">{shownName}</span>
              )}
            </td>
            <td>Beispiel-Download</td>
            <td>{today}</td>
            <td className="text-body-secondary">TT.MM.JJJJ</td>
            <td>
              <button type="button" className="btn btn-sm btn-outline-secondary" disabled tabIndex={-1}>
                <i className="bi bi-download me-1" aria-hidden="true" />
                Dateien
              </button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

interface FormState {
  name: string;
  roles: string[];
  activeFolder: FolderChoice;
  inactiveFolder: FolderChoice;
  upload: Upload | null;
}

function initialState(mode: 'create' | 'edit', provider: Provider | null | undefined): FormState {
  if (mode === 'edit' && provider) {
    return {
      name: provider.name,
      roles: [...provider.allowedRoles],
      activeFolder: provider.brevoActiveFolderId,
      inactiveFolder: provider.brevoInactiveFolderId,
      upload: provider.Upload,
    };
  }
  // Folder selectors default to 'auto' (spec §9).
  return { name: '', roles: [], activeFolder: 'auto', inactiveFolder: 'auto', upload: null };
}

export function ProviderFormModal({ mode, provider, onClose, onCreated, onSaved, onDelete }: ProviderFormModalProps) {
  const isCreate = mode === 'create';
  const [form, setForm] = useState<FormState>(() => initialState(mode, provider));
  const [roleInput, setRoleInput] = useState('');
  const [roleError, setRoleError] = useState<string | null>(null);
  const [errors, setErrors] = useState<ProviderFormErrors>({});
  const [folders, setFolders] = useState<Folder[]>([]);
  const [foldersLoading, setFoldersLoading] = useState(true);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [createAnother, setCreateAnother] = useState(false);
  const [saving, setSaving] = useState(false);
  const [today] = useState(() => formatDate(new Date().toISOString()));

  const nameRef = useRef<HTMLInputElement>(null);
  const roleRef = useRef<HTMLInputElement>(null);
  const activeFolderRef = useRef<HTMLSelectElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const ids = {
    name: useId(),
    nameError: useId(),
    role: useId(),
    roleError: useId(),
    roleHelp: useId(),
    active: useId(),
    inactive: useId(),
    foldersError: useId(),
    logo: useId(),
    logoError: useId(),
    createAnother: useId(),
  };

  // The folder choices are loaded each time the modal opens (all pages).
  useEffect(() => {
    const controller = new AbortController();
    fetchAllFolders(controller.signal)
      .then((loaded) => setFolders(loaded))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) toastReadError(error);
      })
      .finally(() => {
        if (!controller.signal.aborted) setFoldersLoading(false);
      });
    return () => controller.abort();
  }, []);

  function update<K extends keyof FormState>(key: K, value: FormState[K]) {
    setForm((current) => ({ ...current, [key]: value }));
  }

  function clearError(key: keyof ProviderFormErrors) {
    setErrors((current) => {
      if (!(key in current)) return current;
      const next = { ...current };
      delete next[key];
      return next;
    });
  }

  const roleCandidate = roleInput.trim();

  function addRole() {
    if (roleCandidate === '') return;
    const problem = validateNewRole(roleCandidate, form.roles);
    if (problem) {
      setRoleError(problem);
      return;
    }
    update('roles', [...form.roles, roleCandidate]);
    setRoleInput('');
    setRoleError(null);
    clearError('roles');
    roleRef.current?.focus();
  }

  function removeRole(role: string) {
    update(
      'roles',
      form.roles.filter((existing) => existing !== role),
    );
    setRoleError(null);
    roleRef.current?.focus();
  }

  function onRoleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds the role instead of submitting the form.
    addRole();
  }

  async function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    if (!isImageFile(file)) {
      const message = notAnImageMessage(file.name);
      setUploadError(message);
      toast.error(message);
      input.value = '';
      return;
    }
    setUploadError(null);
    setUploading(true);
    try {
      const uploaded = await uploadImage(file);
      update('upload', uploaded);
    } catch (error) {
      if (isApiError(error) && (error.status === 413 || error.status === 422)) {
        setUploadError(error.message);
        toast.warning(error.message);
      } else {
        toastWriteError(error);
      }
    } finally {
      setUploading(false);
      input.value = '';
    }
  }

  function resetForm() {
    setForm(initialState('create', null));
    setRoleInput('');
    setRoleError(null);
    setErrors({});
    setUploadError(null);
    if (fileRef.current) fileRef.current.value = '';
  }

  function focusFirstInvalid(found: ProviderFormErrors) {
    if (found.name) nameRef.current?.focus();
    else if (found.roles) roleRef.current?.focus();
    else if (found.folders) activeFolderRef.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || uploading) return;
    const found = validateProviderForm({
      name: form.name,
      roles: form.roles,
      activeFolder: form.activeFolder,
      inactiveFolder: form.inactiveFolder,
    });
    setErrors(found);
    const first = firstError(found);
    if (first) {
      // Name and roles are errors; missing folders are the warning of spec §8 "Folders not set".
      if (first !== found.folders) toast.error(first);
      if (found.folders) toast.warning(found.folders);
      focusFirstInvalid(found);
      return;
    }

    const payload: ProviderPayload = {
      name: form.name.trim(),
      allowedRoles: form.roles,
      brevoActiveFolderId: form.activeFolder,
      brevoInactiveFolderId: form.inactiveFolder,
      uploadId: form.upload?.id ?? null,
    };
    setSaving(true);
    try {
      if (isCreate) {
        const created = await createProvider(payload);
        onCreated?.(created);
        resetForm(); // keeps the "create another" choice
        if (createAnother) {
          toast.success(CREATED_MESSAGE);
          nameRef.current?.focus();
        } else {
          showAfterNavigation({ type: 'success', message: CREATED_MESSAGE });
          onClose();
          navigateTo(`/admin/provider/${created.id}`);
        }
      } else if (provider) {
        const saved = await updateProvider(provider.id, payload);
        toast.success(UPDATED_MESSAGE);
        onSaved?.(saved);
      }
    } catch (error) {
      if (isApiError(error) && isFolderWarning(error)) toast.warning(FOLDERS_REQUIRED_MESSAGE);
      else toastValidationOrWriteError(error);
    } finally {
      setSaving(false);
    }
  }

  const busy = saving || uploading;

  const footer = (
    <>
      {!isCreate && onDelete && (
        <button
          type="button"
          className="btn btn-outline-danger me-auto"
          onClick={onDelete}
          disabled={saving}
          data-testid="delete-provider"
        >
          <i className="bi bi-trash me-1" aria-hidden="true" />
          Anbieter löschen
        </button>
      )}
      {isCreate && (
        <div className="form-check me-auto">
          <input
            id={ids.createAnother}
            type="checkbox"
            className="form-check-input"
            checked={createAnother}
            onChange={(event) => setCreateAnother(event.target.checked)}
            data-testid="create-another"
          />
          <label htmlFor={ids.createAnother} className="form-check-label">
            Danach weiteren Anbieter anlegen
          </label>
        </div>
      )}
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
        Abbrechen
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="provider-submit">
        {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        {isCreate ? 'Anlegen' : 'Speichern'}
      </button>
    </>
  );

  return (
    <Modal
      title={isCreate ? 'Neuer Anbieter' : 'Anbieter-Einstellungen'}
      onClose={onClose}
      size="lg"
      testId="provider-form-modal"
      closeDisabled={saving}
      onSubmit={(event) => void onSubmit(event)}
      formTestId="provider-form"
      initialFocusRef={nameRef}
      footer={footer}
    >
      <div className="mb-3">
        <label htmlFor={ids.name} className="form-label">
          Name
        </label>
        <input
          ref={nameRef}
          id={ids.name}
          type="text"
          className={`form-control${errors.name ? ' is-invalid' : ''}`}
          value={form.name}
          onChange={(event) => {
            update('name', event.target.value);
            clearError('name');
          }}
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? ids.nameError : undefined}
          data-testid="provider-name"
        />
        {errors.name && (
          <div id={ids.nameError} className="invalid-feedback">
            {errors.name}
          </div>
        )}
      </div>

      <div className="mb-3">
        <label htmlFor={ids.role} className="form-label">
          Gruppen (Rollen)
        </label>
        <div className={`input-group${roleError || errors.roles ? ' has-validation' : ''}`}>
          <input
            ref={roleRef}
            id={ids.role}
            type="text"
            className={`form-control${roleError || errors.roles ? ' is-invalid' : ''}`}
            value={roleInput}
            onChange={(event) => {
              setRoleInput(event.target.value);
              setRoleError(null);
            }}
            onKeyDown={onRoleKeyDown}
            placeholder="z. B. GS-Aktionsportal-BU-Marke"
            autoComplete="off"
            aria-invalid={roleError || errors.roles ? true : undefined}
            aria-describedby={[ids.roleHelp, roleError || errors.roles ? ids.roleError : null].filter(Boolean).join(' ')}
            data-testid="role-input"
          />
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={addRole}
            disabled={roleCandidate === ''}
            data-testid="role-add"
          >
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            Hinzufügen
          </button>
          {(roleError || errors.roles) && (
            <div id={ids.roleError} className="invalid-feedback" data-testid="role-error">
              {roleError ?? errors.roles}
            </div>
          )}
        </div>
        <div id={ids.roleHelp} className="form-text">
          Mitglieder dieser Gruppen dürfen den Anbieter sehen und verwalten.
        </div>
        {form.roles.length > 0 && (
          <ul className="list-unstyled d-flex flex-wrap gap-2 mt-2 mb-0" aria-label="Eingetragene Gruppen">
            {form.roles.map((role) => (
              <li key={role}>
                <span className="badge text-bg-primary d-inline-flex align-items-center gap-1 ap-role-badge" data-testid="role-badge">
                  <span>{role}</span>
                  <button
                    type="button"
                    className="btn-close btn-close-white ap-role-remove"
                    aria-label={`Gruppe ${role} entfernen`}
                    onClick={() => removeRole(role)}
                  />
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="row g-3 mb-1">
        <FolderSelect
          id={ids.active}
          label="Aktiver Marketing-Ordner"
          value={form.activeFolder}
          onChange={(choice) => {
            update('activeFolder', choice);
            clearError('folders');
          }}
          folders={folders}
          loading={foldersLoading}
          invalid={Boolean(errors.folders) && form.activeFolder === null}
          describedBy={errors.folders ? ids.foldersError : undefined}
          testId="active-folder"
          selectRef={activeFolderRef}
        />
        <FolderSelect
          id={ids.inactive}
          label="Inaktiver Marketing-Ordner"
          value={form.inactiveFolder}
          onChange={(choice) => {
            update('inactiveFolder', choice);
            clearError('folders');
          }}
          folders={folders}
          loading={foldersLoading}
          invalid={Boolean(errors.folders) && form.inactiveFolder === null}
          describedBy={errors.folders ? ids.foldersError : undefined}
          testId="inactive-folder"
        />
      </div>
      <div className="mb-3">
        {errors.folders && (
          <div id={ids.foldersError} className="invalid-feedback d-block" data-testid="folders-error">
            {errors.folders}
          </div>
        )}
        {foldersLoading && (
          <div className="form-text" role="status">
            <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            Marketing-Ordner werden geladen …
          </div>
        )}
      </div>

      <div className="mb-3">
        <label htmlFor={ids.logo} className="form-label">
          Logo
        </label>
        <input
          ref={fileRef}
          id={ids.logo}
          type="file"
          accept={LOGO_TYPES.join(',')}
          className={`form-control${uploadError ? ' is-invalid' : ''}`}
          onChange={(event) => void onFileChange(event)}
          disabled={uploading || saving}
          aria-invalid={uploadError ? true : undefined}
          aria-describedby={uploadError ? ids.logoError : undefined}
          data-testid="logo-input"
        />
        {uploadError && (
          <div id={ids.logoError} className="invalid-feedback">
            {uploadError}
          </div>
        )}
        {uploading && (
          <div className="form-text" role="status">
            <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            Bild wird hochgeladen …
          </div>
        )}
        {form.upload && !uploading && (
          <div className="form-text d-flex align-items-center gap-2">
            <span>Aktuelles Bild: {form.upload.name}</span>
            <button
              type="button"
              className="btn btn-link btn-sm p-0"
              onClick={() => update('upload', null)}
              data-testid="logo-remove"
            >
              Bild entfernen
            </button>
          </div>
        )}
      </div>

      <ProviderPreview name={form.name} upload={form.upload} today={today} />
    </Modal>
  );
}
