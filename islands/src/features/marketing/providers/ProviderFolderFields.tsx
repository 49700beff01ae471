// The provider form's Brevo folder part: the active and inactive folder selectors and their messages.
import type { RefObject } from 'react';
import type { Folder, FolderChoice } from './types';
import type { ProviderFormIds } from './useProviderForm';

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

interface ProviderFolderFieldsProps {
  ids: ProviderFormIds;
  activeFolder: FolderChoice;
  inactiveFolder: FolderChoice;
  onChange: (key: 'activeFolder' | 'inactiveFolder', choice: FolderChoice) => void;
  folders: readonly Folder[];
  loading: boolean;
  error: string | undefined;
  activeFolderRef: RefObject<HTMLSelectElement | null>;
}

export function ProviderFolderFields({
  ids,
  activeFolder,
  inactiveFolder,
  onChange,
  folders,
  loading,
  error,
  activeFolderRef,
}: ProviderFolderFieldsProps) {
  return (
    <>
      <div className="row g-3 mb-1">
        <FolderSelect
          id={ids.active}
          label="Aktiver Marketing-Ordner"
          value={activeFolder}
          onChange={(choice) => onChange('activeFolder', choice)}
          folders={folders}
          loading={loading}
          invalid={Boolean(error) && activeFolder === null}
          describedBy={error ? ids.foldersError : undefined}
          testId="active-folder"
          selectRef={activeFolderRef}
        />
        <FolderSelect
          id={ids.inactive}
          label="Inaktiver Marketing-Ordner"
          value={inactiveFolder}
          onChange={(choice) => onChange('inactiveFolder', choice)}
          folders={folders}
          loading={loading}
          invalid={Boolean(error) && inactiveFolder === null}
          describedBy={error ? ids.foldersError : undefined}
          testId="inactive-folder"
        />
      </div>
      <div className="mb-3">
        {error && (
          <div id={ids.foldersError} className="invalid-feedback d-block" data-testid="folders-error">
            {error}
          </div>
        )}
        {loading && (
          <div className="form-text" role="status">
            <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            Marketing-Ordner werden geladen …
          </div>
        )}
      </div>
    </>
  );
}
