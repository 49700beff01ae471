// The criteria (lists) of one provider: /admin/provider/{id} (spec §2 "Provider criteria screen").
// The first page (id descending, both statuses) comes with the props; filters, sorting and
// "Mehr laden" fetch from the server, writes update the table in memory (spec §4).
import { useId, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyRow, ListSearch, LoadMore } from '../../../components/ListScreen';
import { ApiError, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import { auditHistoryPath } from '../../../lib/audit';
import { toastReadError, toastWriteError } from '../../../lib/apiToasts';
import { formatCount, formatDateTime } from '../../../lib/format';
import { allLoaded } from '../../../lib/pagedList';
import { useListScreen } from '../../../lib/useListScreen';
import { toast } from '../../../lib/toast';
import {
  createList,
  deleteList,
  fetchLists,
  renameList,
  setListStatus,
  syncProviderLists,
} from './api';
import { CriterionNameModal } from './CriterionNameModal';
import { announceProviderSaved } from './events';
import { ImportListsModal } from './ImportListsModal';
import { applyListFilters, DEFAULT_LIST_FILTERS, withStatus } from './listFilters';
import type { ListFilters } from './listFilters';
import { ProviderDeleteModal, REMOVED_MESSAGE } from './ProviderDeleteModal';
import { CREATED_MESSAGE, ProviderFormModal, UPDATED_MESSAGE } from './ProviderFormModal';
import { normalizeList, normalizeProvider, uploadUrl } from './types';
import type { ProviderList } from '../../../lib/providerLists';
import type { Paged, Provider, RawProvider } from './types';
import { FOLDER_WARNING_MESSAGE } from './validation';

export const PROVIDER_MISSING_MESSAGE = 'Anbieter existiert nicht!';
export const SEARCH_DEBOUNCE_MS = 400;

export interface ProviderCriteriaProps {
  /** null when the provider does not exist (or is not visible to the user). */
  provider: RawProvider | null;
  /** First page: id descending, both statuses, no search. */
  lists: Paged<ProviderList> | null;
  isAdmin: boolean;
}

type ModalState =
  | { kind: 'create' }
  | { kind: 'rename'; list: ProviderList }
  | { kind: 'delete'; list: ProviderList }
  | { kind: 'settings' }
  | { kind: 'deleteProvider' }
  | { kind: 'import' }
  | null;

export default function ProviderCriteria({ provider, lists, isAdmin }: ProviderCriteriaProps) {
  if (!provider) {
    return (
      <div className="alert alert-warning" role="alert" data-testid="provider-missing">
        {PROVIDER_MISSING_MESSAGE}
      </div>
    );
  }
  return <CriteriaScreen initialProvider={provider} initialLists={lists} isAdmin={isAdmin} />;
}

interface CriteriaScreenProps {
  initialProvider: RawProvider;
  initialLists: Paged<ProviderList> | null;
  isAdmin: boolean;
}

function CriteriaScreen({ initialProvider, initialLists, isAdmin }: CriteriaScreenProps) {
  const [provider, setProvider] = useState<Provider>(() => normalizeProvider(initialProvider));
  const {
    list: lists,
    dispatch,
    filters,
    filtersRef,
    searchText,
    loading,
    pending,
    load,
    cancelLoad,
    applyFilters,
    currentFilters,
    onSearchChange,
    setRowPending,
  } = useListScreen<ProviderList, ListFilters>({
    first: { items: (initialLists?.content ?? []).map(normalizeList), count: initialLists?.count ?? 0 },
    initialFilters: DEFAULT_LIST_FILTERS,
    fetchPage: (next, offset, signal) =>
      fetchLists(
        provider.id,
        { offset, sort: next.sort, active: next.active, inactive: next.inactive, search: next.search },
        signal,
      ),
    debounceMs: SEARCH_DEBOUNCE_MS,
  });
  const [syncing, setSyncing] = useState(false);
  const [modal, setModal] = useState<ModalState>(null);
  const [deleting, setDeleting] = useState(false);

  const searchId = useId();

  async function onCreate(name: string) {
    try {
      const created = await createList(provider.id, name);
      dispatch({ type: 'insertFront', item: created });
      toast.success(CREATED_MESSAGE);
      setModal(null);
    } catch (error) {
      // Without its folders the provider cannot take new lists: the folder warning of §8.
      if (error instanceof ApiError && error.code === 'change_folder_warning') toast.warning(FOLDER_WARNING_MESSAGE);
      else toastWriteError(error);
    }
  }

  async function onRename(list: ProviderList, name: string) {
    try {
      const renamed = await renameList(list.id, name);
      dispatch({ type: 'replace', item: renamed });
      toast.success(UPDATED_MESSAGE);
      setModal(null);
    } catch (error) {
      toastWriteError(error);
    }
  }

  async function onToggle(list: ProviderList) {
    if (pending.has(list.id)) return;
    setRowPending(list.id, true);
    try {
      const answer = await setListStatus(list.id, !list.active);
      if (answer.kind === 'changed') {
        dispatch({ type: 'replace', item: answer.list });
        toast.success(UPDATED_MESSAGE);
      } else if (answer.kind === 'folder_warning') {
        toast.warning(FOLDER_WARNING_MESSAGE);
      } else {
        toast.error(UNEXPECTED_ERROR_MESSAGE, answer.message || answer.code);
      }
    } catch (error) {
      toastWriteError(error);
    } finally {
      setRowPending(list.id, false);
    }
  }

  async function onDelete(list: ProviderList) {
    setDeleting(true);
    try {
      await deleteList(list.id);
      dispatch({ type: 'remove', id: list.id });
      toast.success(REMOVED_MESSAGE);
    } catch (error) {
      toastWriteError(error);
    } finally {
      setDeleting(false);
      setModal(null);
    }
  }

  async function onSync() {
    if (syncing) return;
    setSyncing(true);
    cancelLoad();
    try {
      const synced = applyListFilters(await syncProviderLists(provider.id), filtersRef.current);
      dispatch({ type: 'reset', items: synced, count: synced.length });
      toast.success(UPDATED_MESSAGE);
    } catch (error) {
      toastReadError(error);
    } finally {
      setSyncing(false);
    }
  }

  function onProviderSaved(saved: Provider) {
    setProvider(saved);
    announceProviderSaved(saved);
    setModal(null);
  }

  const complete = allLoaded(lists);
  const sortLabel = filters.sort === 'DESC' ? 'absteigend' : 'aufsteigend';

  return (
    <section className="ap-criteria" data-testid="provider-criteria" aria-label={`Kriterien von ${provider.name}`}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3 ap-criteria-toolbar">
        <div className="me-2 ap-provider-brand" data-testid="provider-brand">
          {provider.Upload ? (
            <img src={uploadUrl(provider.Upload.path)} alt={provider.name} height={40} className="ap-provider-logo" />
          ) : (
            <span className="h4 mb-0">{provider.name}</span>
          )}
        </div>

        <ListSearch
          label="Kriterien durchsuchen"
          value={searchText}
          onChange={onSearchChange}
          testId="criteria-search"
          className="ap-criteria-search"
        />

        <fieldset className="d-flex align-items-center gap-3 mb-0 px-1">
          <legend className="visually-hidden">Status</legend>
          <div className="form-check mb-0">
            <input
              id={`${searchId}-active`}
              type="checkbox"
              className="form-check-input"
              checked={filters.active}
              onChange={(event) => applyFilters(withStatus(currentFilters(), 'active', event.target.checked))}
              data-testid="status-active"
            />
            <label htmlFor={`${searchId}-active`} className="form-check-label">
              Aktiv
            </label>
          </div>
          <div className="form-check mb-0">
            <input
              id={`${searchId}-inactive`}
              type="checkbox"
              className="form-check-input"
              checked={filters.inactive}
              onChange={(event) => applyFilters(withStatus(currentFilters(), 'inactive', event.target.checked))}
              data-testid="status-inactive"
            />
            <label htmlFor={`${searchId}-inactive`} className="form-check-label">
              Inaktiv
            </label>
          </div>
        </fieldset>

        <div className="d-flex flex-wrap gap-2">
          {isAdmin && (
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={() => setModal({ kind: 'settings' })}
              aria-label="Anbieter-Einstellungen"
              title="Anbieter-Einstellungen"
              data-testid="settings-button"
            >
              <i className="bi bi-gear" aria-hidden="true" />
            </button>
          )}
          {isAdmin && (
            <a
              className="btn btn-outline-secondary"
              href={auditHistoryPath('provider', provider.id)}
              data-testid="provider-history"
            >
              <i className="bi bi-clock-history me-1" aria-hidden="true" />
              Verlauf
            </a>
          )}
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => setModal({ kind: 'import' })}
            disabled={syncing}
            aria-haspopup="dialog"
            data-testid="import-button"
          >
            {syncing ? (
              <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            ) : (
              <i className="bi bi-cloud-download me-1" aria-hidden="true" />
            )}
            Aus Marketing-Dienst importieren
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => setModal({ kind: 'create' })}
            data-testid="create-criterion"
          >
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            Kriterium anlegen
          </button>
        </div>
      </div>

      <div className="table-responsive">
        <table className="table table-hover align-middle ap-criteria-table" data-testid="criteria-table" aria-busy={loading || syncing}>
          <thead>
            <tr>
              <th scope="col" aria-sort={filters.sort === 'DESC' ? 'descending' : 'ascending'}>
                <button
                  type="button"
                  className="btn btn-link p-0 fw-semibold text-decoration-none text-reset"
                  onClick={() => applyFilters({ ...currentFilters(), sort: filters.sort === 'DESC' ? 'ASC' : 'DESC' })}
                  title={`Nach ID sortieren (derzeit ${sortLabel})`}
                  data-testid="sort-id"
                >
                  ID{' '}
                  <i
                    className={`bi ${filters.sort === 'DESC' ? 'bi-sort-numeric-down-alt' : 'bi-sort-numeric-down'}`}
                    aria-hidden="true"
                  />
                </button>
              </th>
              <th scope="col">Name</th>
              <th scope="col">Abonnenten</th>
              <th scope="col">Aktualisiert</th>
              <th scope="col" className="text-end">
                Aktionen
              </th>
            </tr>
          </thead>
          <tbody>
            {lists.items.length === 0 && (
              <EmptyRow
                columns={5}
                loading={loading}
                loadingText="Kriterien werden geladen …"
                emptyText="Keine Kriterien gefunden."
                testId="criteria-empty"
              />
            )}
            {lists.items.map((list) => (
              <CriterionRow
                key={list.id}
                list={list}
                busy={pending.has(list.id)}
                onRename={() => setModal({ kind: 'rename', list })}
                onToggle={() => void onToggle(list)}
                onDelete={() => setModal({ kind: 'delete', list })}
              />
            ))}
          </tbody>
        </table>
      </div>

      <LoadMore
        loaded={lists.items.length}
        total={lists.count}
        loading={loading}
        disabled={complete || syncing}
        onLoadMore={() => void load(filters, 'append')}
      />

      {modal?.kind === 'create' && (
        <CriterionNameModal mode="create" onSubmit={onCreate} onClose={() => setModal(null)} />
      )}
      {modal?.kind === 'rename' && (
        <CriterionNameModal
          mode="rename"
          initialName={modal.list.name}
          onSubmit={(name) => onRename(modal.list, name)}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmModal
          title="Kriterium löschen"
          confirmLabel="Löschen"
          danger
          busy={deleting}
          onConfirm={() => void onDelete(modal.list)}
          onClose={() => setModal(null)}
          testId="criterion-delete-modal"
          confirmTestId="confirm-delete-criterion"
        >
          <p className="mb-0">Kriterium „{modal.list.name}“ wirklich löschen?</p>
        </ConfirmModal>
      )}
      {modal?.kind === 'settings' && (
        <ProviderFormModal
          mode="edit"
          provider={provider}
          onClose={() => setModal(null)}
          onSaved={onProviderSaved}
          onDelete={() => setModal({ kind: 'deleteProvider' })}
        />
      )}
      {modal?.kind === 'import' && (
        <ImportListsModal
          provider={provider}
          onImported={(list) => dispatch({ type: 'insertFront', item: list })}
          onImportAll={() => {
            setModal(null);
            void onSync();
          }}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'deleteProvider' && (
        <ProviderDeleteModal provider={provider} onClose={() => setModal(null)} />
      )}
    </section>
  );
}

interface CriterionRowProps {
  list: ProviderList;
  busy: boolean;
  onRename: () => void;
  onToggle: () => void;
  onDelete: () => void;
}

function CriterionRow({ list, busy, onRename, onToggle, onDelete }: CriterionRowProps) {
  return (
    <tr
      className={list.active ? undefined : 'ap-row-inactive'}
      data-testid="criteria-row"
      data-list-id={list.id}
      data-active={String(list.active)}
    >
      <td>{list.id}</td>
      <td>
        <span className="ap-criterion-name">{list.name}</span>
        {!list.active && <span className="badge text-bg-secondary ms-2">inaktiv</span>}
      </td>
      <td>
        {formatCount(list.totalSubscribers)}
        {list.totalBlocked > 0 && (
          <small className="text-body-secondary ms-1">({formatCount(list.totalBlocked)} blockiert)</small>
        )}
      </td>
      <td>{formatDateTime(list.updatedAt)}</td>
      <td className="text-end text-nowrap">
        <div className="btn-group btn-group-sm" role="group" aria-label={`Aktionen für ${list.name}`}>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={onRename}
            disabled={busy}
            title="Umbenennen"
            aria-label={`${list.name} umbenennen`}
            data-testid={`rename-${list.id}`}
          >
            <i className="bi bi-pencil" aria-hidden="true" />
          </button>
          <a
            className="btn btn-outline-secondary"
            href={`/admin/contacts?liste=${list.id}`}
            title="Kontakte anzeigen"
            aria-label={`Kontakte von ${list.name} anzeigen`}
            data-testid={`contacts-${list.id}`}
          >
            <i className="bi bi-person-lines-fill" aria-hidden="true" />
          </a>
          <button
            type="button"
            className={`btn ${list.active ? 'btn-outline-success' : 'btn-outline-secondary'}`}
            onClick={onToggle}
            disabled={busy}
            title={list.active ? 'Deaktivieren' : 'Aktivieren'}
            aria-label={list.active ? `${list.name} deaktivieren` : `${list.name} aktivieren`}
            data-testid={`toggle-${list.id}`}
          >
            {busy ? (
              <span className="spinner-border spinner-border-sm" aria-hidden="true" />
            ) : (
              <i className={`bi ${list.active ? 'bi-toggle-on' : 'bi-toggle-off'}`} aria-hidden="true" />
            )}
          </button>
          {!list.active && (
            <button
              type="button"
              className="btn btn-outline-danger"
              onClick={onDelete}
              disabled={busy}
              title="Löschen"
              aria-label={`${list.name} löschen`}
              data-testid={`delete-${list.id}`}
            >
              <i className="bi bi-trash" aria-hidden="true" />
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}
