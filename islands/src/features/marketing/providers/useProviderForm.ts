// State and handlers of the provider form modal: fields, roles, Brevo folders, logo upload and saving.
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, FormEvent, KeyboardEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { toastReadError, toastValidationOrWriteError, toastWriteError } from '../../../lib/apiToasts';
import { formatDate } from '../../../lib/format';
import { navigateTo } from '../../../lib/navigate';
import { showAfterNavigation, toast } from '../../../lib/toast';
import { createProvider, fetchAllFolders, updateProvider, uploadImage } from './api';
import type { Folder, FolderChoice, Provider, ProviderPayload, Upload } from './types';
import {
  firstError,
  FOLDERS_REQUIRED_MESSAGE,
  isFolderWarning,
  isImageFile,
  notAnImageMessage,
  validateNewRole,
  validateProviderForm,
} from './validation';
import type { ProviderFormErrors } from './validation';

export const CREATED_MESSAGE = 'Erfolgreich angelegt';
export const UPDATED_MESSAGE = 'Erfolgreich aktualisiert';

export interface ProviderFormOptions {
  mode: 'create' | 'edit';
  /** The provider being edited (edit mode). */
  provider?: Provider | null;
  onClose: () => void;
  /** After each successful create (also when the modal stays open for the next one). */
  onCreated?: (provider: Provider) => void;
  /** After a successful edit, with the server's answer. */
  onSaved?: (provider: Provider) => void;
}

export interface FormState {
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

/** The ids that tie the form's labels, fields and messages together. */
function useFormIds() {
  return {
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
}

export type ProviderFormIds = ReturnType<typeof useFormIds>;

/** The folder choices, loaded each time the modal opens (all pages). */
function useFolderChoices() {
  const [folders, setFolders] = useState<Folder[]>([]);
  const [foldersLoading, setFoldersLoading] = useState(true);
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
  return { folders, foldersLoading };
}

/** The role being typed, its error, and adding and removing roles. */
function useRoleInput(roles: string[], setRoles: (next: string[]) => void, onAdded: () => void) {
  const [roleInput, setRoleInput] = useState('');
  const [roleError, setRoleError] = useState<string | null>(null);
  const roleRef = useRef<HTMLInputElement>(null);
  const roleCandidate = roleInput.trim();

  function addRole() {
    if (roleCandidate === '') return;
    const problem = validateNewRole(roleCandidate, roles);
    if (problem) {
      setRoleError(problem);
      return;
    }
    setRoles([...roles, roleCandidate]);
    setRoleInput('');
    setRoleError(null);
    onAdded();
    roleRef.current?.focus();
  }

  function removeRole(role: string) {
    setRoles(roles.filter((existing) => existing !== role));
    setRoleError(null);
    roleRef.current?.focus();
  }

  function onRoleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds the role instead of submitting the form.
    addRole();
  }

  function changeRoleInput(value: string) {
    setRoleInput(value);
    setRoleError(null);
  }

  function resetRoleInput() {
    setRoleInput('');
    setRoleError(null);
  }

  return { roleRef, roleInput, roleError, roleCandidate, addRole, removeRole, onRoleKeyDown, changeRoleInput, resetRoleInput };
}

export type RoleInput = ReturnType<typeof useRoleInput>;

/** The logo's file field: uploading the chosen image and its error. */
function useLogoUpload(setUpload: (upload: Upload) => void) {
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

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
      setUpload(uploaded);
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

  function resetLogo() {
    setUploadError(null);
    if (fileRef.current) fileRef.current.value = '';
  }

  return { fileRef, uploading, uploadError, onFileChange, resetLogo };
}

export type LogoUpload = ReturnType<typeof useLogoUpload>;

export function useProviderForm({ mode, provider, onClose, onCreated, onSaved }: ProviderFormOptions) {
  const isCreate = mode === 'create';
  const [form, setForm] = useState<FormState>(() => initialState(mode, provider));
  const [errors, setErrors] = useState<ProviderFormErrors>({});
  const [createAnother, setCreateAnother] = useState(false);
  const [saving, setSaving] = useState(false);
  const [today] = useState(() => formatDate(new Date().toISOString()));
  const nameRef = useRef<HTMLInputElement>(null);
  const activeFolderRef = useRef<HTMLSelectElement>(null);
  const roleField = useRoleInput(form.roles, (next) => update('roles', next), () => clearError('roles'));
  const logo = useLogoUpload((upload) => update('upload', upload));
  const ids = useFormIds();
  const { folders, foldersLoading } = useFolderChoices();

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

  function resetForm() {
    setForm(initialState('create', null));
    roleField.resetRoleInput();
    setErrors({});
    logo.resetLogo();
  }

  function focusFirstInvalid(found: ProviderFormErrors) {
    if (found.name) nameRef.current?.focus();
    else if (found.roles) roleField.roleRef.current?.focus();
    else if (found.folders) activeFolderRef.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || logo.uploading) return;
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

  const busy = saving || logo.uploading;

  return {
    isCreate,
    form,
    errors,
    ids,
    today,
    saving,
    busy,
    createAnother,
    setCreateAnother,
    nameRef,
    activeFolderRef,
    folders,
    foldersLoading,
    roleField,
    logo,
    update,
    clearError,
    onSubmit,
  };
}
