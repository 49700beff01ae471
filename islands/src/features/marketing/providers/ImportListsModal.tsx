// "Aus Marketing-Dienst importieren" on the provider criteria screen (spec §2, §7, §9): the lists
// inside the provider's marketing folders (active or inactive folder, 50 a page, ascending), to
// be taken over one by one as criteria. Lists that are criteria of this provider already are
// shown checked and disabled. "Alle übernehmen" takes over every list of both folders at once
// (GET /api/sync/providers/{id}, run by the screen).
import { useEffect, useId, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { isApiError, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import { errorDetail } from '../../../lib/apiToasts';
import { toast } from '../../../lib/toast';
import { fetchFolderLists, fetchProviderBrevoIds, importFolderList } from './api';
import { ImportListsTable } from './ImportListsTable';
import { FOLDER_WARNING_MESSAGE, isFolderWarning } from './validation';
import type { FolderList } from './api';
import type { ProviderList } from '../../../lib/providerLists';
import type { Provider } from './types';

export const IMPORT_TITLE = 'Aus Marketing-Dienst importieren';
export { ALREADY_TAKEN } from './ImportListsTable';
export const NO_FOLDERS_MESSAGE = 'Für diesen Anbieter ist kein Marketing-Ordner hinterlegt.';
export const EMPTY_FOLDER_MESSAGE = 'Dieser Ordner enthält keine Listen.';

export type FolderKey = 'active' | 'inactive';

export interface FolderChoice {
  key: FolderKey;
  id: number;
  label: string;
}

/** The provider's folders that have an id (automatic or none have not). */
export function folderChoices(provider: Pick<Provider, 'brevoActiveFolderId' | 'brevoInactiveFolderId'>): FolderChoice[] {
  const choices: FolderChoice[] = [];
  if (typeof provider.brevoActiveFolderId === 'number') {
    choices.push({ key: 'active', id: provider.brevoActiveFolderId, label: `Aktiver Ordner (ID ${provider.brevoActiveFolderId})` });
  }
  if (typeof provider.brevoInactiveFolderId === 'number') {
    choices.push({
      key: 'inactive',
      id: provider.brevoInactiveFolderId,
      label: `Inaktiver Ordner (ID ${provider.brevoInactiveFolderId})`,
    });
  }
  return choices;
}

export function importedMessage(n: number): string {
  return n === 1 ? '1 Kriterium übernommen.' : `${n} Kriterien übernommen.`;
}

function messageOf(error: unknown): string {
  return isApiError(error) ? error.message : UNEXPECTED_ERROR_MESSAGE;
}

type TakenState = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; ids: ReadonlySet<number> };

interface PageState {
  folderId: number;
  lists: FolderList[];
  count: number;
  loading: boolean;
  error: string | null;
}

/** The loaded page of a folder's lists (the first page when the folder is chosen), and loading the next. */
function useFolderPage(folderId: number | null) {
  const [page, setPage] = useState<PageState | null>(null);
  // The first page of the chosen folder.
  useEffect(() => {
    if (folderId === null) return;
    const controller = new AbortController();
    fetchFolderLists(folderId, 0, controller.signal)
      .then((answer) => setPage({ folderId, lists: answer.lists, count: answer.count, loading: false, error: null }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          setPage({ folderId, lists: [], count: 0, loading: false, error: messageOf(error) });
        }
      });
    return () => controller.abort();
  }, [folderId]);

  async function loadMore() {
    if (!page || page.loading) return;
    const before = page;
    setPage({ ...before, loading: true });
    try {
      const answer = await fetchFolderLists(before.folderId, before.lists.length);
      setPage((now) => {
        if (!now || now.folderId !== before.folderId) return now;
        const known = new Set(now.lists.map((list) => list.id));
        const lists = [...now.lists, ...answer.lists.filter((list) => !known.has(list.id))];
        return { ...now, lists, count: Math.max(answer.count, lists.length), loading: false, error: null };
      });
    } catch (error) {
      setPage((now) => (now && now.folderId === before.folderId ? { ...now, loading: false, error: messageOf(error) } : now));
    }
  }

  return { page, loadMore };
}

interface ImportListsFooterProps {
  importing: boolean;
  selectedCount: number;
  onImportAll: () => void;
  onClose: () => void;
  onImportSelected: () => void;
}

/** "Alle übernehmen", "Schließen" and "Ausgewählte übernehmen". */
function ImportListsFooter({ importing, selectedCount, onImportAll, onClose, onImportSelected }: ImportListsFooterProps) {
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-secondary me-auto"
        onClick={onImportAll}
        disabled={importing}
        title="Übernimmt alle Listen beider Ordner und aktualisiert die Abonnentenzahlen"
        data-testid="import-all"
      >
        <i className="bi bi-cloud-download me-1" aria-hidden="true" />
        Alle übernehmen
      </button>
      <button type="button" className="btn btn-secondary" onClick={onClose} disabled={importing}>
        Schließen
      </button>
      <button
        type="button"
        className="btn btn-primary"
        onClick={onImportSelected}
        disabled={importing || selectedCount === 0}
        data-testid="import-selected"
      >
        {importing && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        Ausgewählte übernehmen{selectedCount > 0 ? ` (${selectedCount})` : ''}
      </button>
    </>
  );
}

interface FolderChooserProps {
  choices: FolderChoice[];
  folderKey: FolderKey | null;
  onChange: (key: FolderKey) => void;
  disabled: boolean;
  selectId: string;
}

/** A select of the folders when there are two, else the one folder's name. */
function FolderChooser({ choices, folderKey, onChange, disabled, selectId }: FolderChooserProps) {
  if (choices.length <= 1) return <p className="mb-3">Ordner: {choices[0]?.label}</p>;
  return (
    <div className="mb-3">
      <label htmlFor={selectId} className="form-label">
        Ordner
      </label>
      <select
        id={selectId}
        className="form-select"
        value={folderKey ?? ''}
        onChange={(event) => onChange(event.target.value as FolderKey)}
        disabled={disabled}
        data-testid="import-folder"
      >
        {choices.map((choice) => (
          <option key={choice.key} value={choice.key}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface ImportListsModalProps {
  provider: Provider;
  /** A list was taken over: the new criterion. */
  onImported: (list: ProviderList) => void;
  /** "Alle übernehmen". */
  onImportAll: () => void;
  onClose: () => void;
}

export function ImportListsModal({ provider, onImported, onImportAll, onClose }: ImportListsModalProps) {
  const choices = folderChoices(provider);
  const [folderKey, setFolderKey] = useState<FolderKey | null>(choices[0]?.key ?? null);
  const folder = choices.find((choice) => choice.key === folderKey) ?? null;
  const [taken, setTaken] = useState<TakenState>({ kind: 'loading' });
  const [selected, setSelected] = useState<ReadonlyMap<number, FolderList>>(() => new Map());
  const [importing, setImporting] = useState(false);
  const ids = useId();

  const hasFolders = choices.length > 0;
  // The provider's criteria: which lists are taken over already.
  useEffect(() => {
    if (!hasFolders) return;
    const controller = new AbortController();
    fetchProviderBrevoIds(provider.id, controller.signal)
      .then((found) => setTaken({ kind: 'loaded', ids: found }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setTaken({ kind: 'failed', message: messageOf(error) });
      });
    return () => controller.abort();
  }, [provider.id, hasFolders]);

  const folderId = folder?.id ?? null;
  const { page, loadMore } = useFolderPage(folderId);

  function toggle(list: FolderList, on: boolean) {
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(list.id, list);
      else next.delete(list.id);
      return next;
    });
  }

  async function importSelected() {
    if (importing || selected.size === 0) return;
    setImporting(true);
    let done = 0;
    let failed = 0;
    const takenNow = new Set(taken.kind === 'loaded' ? taken.ids : []);
    for (const list of selected.values()) {
      try {
        const created = await importFolderList(provider.id, list);
        onImported(created);
        takenNow.add(list.id);
        done += 1;
        setSelected((current) => {
          const next = new Map(current);
          next.delete(list.id);
          return next;
        });
      } catch (error) {
        failed += 1;
        // Without folders no list can be taken over: one warning (spec §8), not one error per list.
        if (isApiError(error) && isFolderWarning(error)) {
          toast.warning(FOLDER_WARNING_MESSAGE);
          break;
        }
        toast.error(`„${list.name ?? list.id}“ konnte nicht übernommen werden.`, isApiError(error) ? errorDetail(error) : null);
      }
    }
    setTaken({ kind: 'loaded', ids: takenNow });
    setImporting(false);
    if (done > 0) toast.success(importedMessage(done));
    if (failed === 0) onClose();
  }

  const takenIds = taken.kind === 'loaded' ? taken.ids : null;
  // The page of the chosen folder (while another folder's is still shown, it is loading).
  const current = page !== null && page.folderId === folderId ? page : null;

  return (
    <Modal
      title={IMPORT_TITLE}
      onClose={onClose}
      size="lg"
      testId="import-lists-modal"
      closeDisabled={importing}
      footer={
        <ImportListsFooter
          importing={importing}
          selectedCount={selected.size}
          onImportAll={onImportAll}
          onClose={onClose}
          onImportSelected={() => void importSelected()}
        />
      }
    >
      {choices.length === 0 ? (
        <p className="mb-0" data-testid="import-no-folders">
          {NO_FOLDERS_MESSAGE}
        </p>
      ) : (
        <>
          <FolderChooser
            choices={choices}
            folderKey={folderKey}
            onChange={setFolderKey}
            disabled={importing}
            selectId={`${ids}-folder`}
          />

          {taken.kind === 'failed' && (
            <div className="alert alert-danger" role="alert" data-testid="import-error">
              {taken.message}
            </div>
          )}
          {current?.error && (
            <div className="alert alert-danger" role="alert" data-testid="import-error">
              {current.error}
            </div>
          )}
          {(current === null || takenIds === null) && taken.kind !== 'failed' && (
            <p className="text-body-secondary" role="status">
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
              Listen werden geladen …
            </p>
          )}
          {current && takenIds && current.lists.length === 0 && !current.loading && !current.error && (
            <p className="text-body-secondary" data-testid="import-empty">
              {EMPTY_FOLDER_MESSAGE}
            </p>
          )}
          {current && takenIds && current.lists.length > 0 && (
            <ImportListsTable
              page={current}
              takenIds={takenIds}
              selected={selected}
              importing={importing}
              ids={ids}
              onToggle={toggle}
              onLoadMore={() => void loadMore()}
            />
          )}
        </>
      )}
    </Modal>
  );
}
