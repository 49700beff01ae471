// The admin downloads list: /admin/downloads/ (spec §2 "Downloads list (admin)", §4, §9).
// The first page comes with the props; search, filters, sorting and "Mehr laden" fetch from
// the server, and the row actions update the list in memory (spec §4 "Lists in memory").
// Each row shows its package's downloads of all time; "Statistik" opens the last 30 days.
import { useId, useState } from 'react';
import { FilterButtons, ListSearch, LoadMore } from '../../../components/ListScreen';
import { changeArchiveStatus, deleteDownload, duplicateDownload, fetchAdminDownloads } from '../../../lib/downloads';
import type { Download, DownloadPage, ListQuery, ProviderRef } from '../../../lib/downloads';
import type { PagedListAction } from '../../../lib/pagedList';
import { allLoaded } from '../../../lib/pagedList';
import { useListScreen } from '../../../lib/useListScreen';
import { toast } from '../../../lib/toast';
import { AdminDownloadsModals } from './AdminDownloadsModals';
import type { ModalState } from './AdminDownloadsModals';
import { AdminDownloadsTable } from './AdminDownloadsTable';
import type { RowActions } from './DownloadRow';
import { FilterPanel } from './FilterPanel';
import { useAllTimeDownloads } from './useAllTimeDownloads';
import { useAnnouncementStatuses } from './useAnnouncementStatuses';
import {
  activeFilterCount,
  filtersOf,
  queryOf,
  sortedBy,
  urlSearchOf,
} from './listQuery';
import type { ListFilters } from './listQuery';
import {
  CREATED_MESSAGE,
  REMOVED_MESSAGE,
  toastMutationError,
  UPDATED_MESSAGE,
} from './toasts';

const SEARCH_DEBOUNCE_MS = 400;
const ADD_PATH = '/admin/download/add/';

export { SETTINGS_MESSAGE } from './AdminDownloadsModals';

export interface AdminDownloadsProps {
  /** The first page for `query`. */
  page: DownloadPage;
  /** The list parameters of the address bar, as the server read them. */
  query: ListQuery;
  /** The providers the user may see (the filter panel). */
  providers: ProviderRef[];
  productName: string;
  browserZipLimitMb: number;
  /** GS-Aktionsportal-Admin: the statistics show who took a package, and each row's menu
   * links to the package's history in the audit log ("Verlauf"). */
  isAdmin?: boolean;
}

interface RowActionOptions {
  pending: ReadonlySet<number>;
  setRowPending: (id: number, busy: boolean) => void;
  dispatch: (action: PagedListAction<Download>) => void;
  /** Whether the list shows archived packages (the filters of the latest request). */
  showsArchived: () => boolean;
  setModal: (modal: ModalState) => void;
}

/** The row menu's actions, one at a time per row, and deleting a package. */
function useRowActions({ pending, setRowPending, dispatch, showsArchived, setModal }: RowActionOptions) {
  const [deleting, setDeleting] = useState(false);

  async function withRow(download: Download, action: () => Promise<void>) {
    if (pending.has(download.id)) return;
    setRowPending(download.id, true);
    try {
      await action();
    } catch (error) {
      toastMutationError(error);
    } finally {
      setRowPending(download.id, false);
    }
  }

  const actions: RowActions = {
    onDuplicate: (download) =>
      void withRow(download, async () => {
        const copy = await duplicateDownload(download.id);
        // The copy is not archived: it belongs in the list unless only archived ones are shown.
        if (copy.archived === showsArchived()) dispatch({ type: 'insertFront', item: copy });
        toast.success(CREATED_MESSAGE);
      }),
    onShowCriteria: (download) => setModal({ kind: 'criteria', download }),
    onDownloadFiles: (download) => setModal({ kind: 'manager', download }),
    onToggleArchive: (download) =>
      void withRow(download, async () => {
        const { archived } = await changeArchiveStatus(download.id);
        // Archived and current packages are never listed together (spec §4).
        if (archived !== showsArchived()) dispatch({ type: 'remove', id: download.id });
        else dispatch({ type: 'replace', item: { ...download, archived } });
        toast.success(UPDATED_MESSAGE);
      }),
    onDelete: (download) => setModal({ kind: 'delete', download }),
    onShowStatistics: (download) => setModal({ kind: 'statistics', download }),
  };

  async function onDelete(download: Download) {
    setDeleting(true);
    try {
      await deleteDownload(download.id);
      dispatch({ type: 'remove', id: download.id });
      toast.success(REMOVED_MESSAGE);
      setModal(null);
    } catch (error) {
      toastMutationError(error);
    } finally {
      setDeleting(false);
    }
  }

  return { actions, deleting, onDelete };
}

export default function AdminDownloads({
  page,
  query,
  providers,
  productName,
  browserZipLimitMb,
  isAdmin = false,
}: AdminDownloadsProps) {
  const {
    list,
    dispatch,
    filters,
    filtersRef,
    searchText,
    loading,
    pending,
    load,
    applyFilters,
    currentFilters,
    onSearchChange,
    setRowPending,
  } = useListScreen<Download, ListFilters>({
    first: { items: page.content, count: page.count },
    initialFilters: filtersOf(query),
    fetchPage: (next, offset, signal) => fetchAdminDownloads(queryOf(next, offset), signal),
    onFiltersApplied: (next) =>
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${urlSearchOf(next)}`),
    debounceMs: SEARCH_DEBOUNCE_MS,
  });
  const [panelOpen, setPanelOpen] = useState(() => activeFilterCount(filters) > 0);
  const [modal, setModal] = useState<ModalState>(null);

  const ids = useId();
  const shownIds = list.items.map((download) => download.id);
  const allTime = useAllTimeDownloads(shownIds);
  const announcements = useAnnouncementStatuses(shownIds);

  const { actions, deleting, onDelete } = useRowActions({
    pending,
    setRowPending,
    dispatch,
    showsArchived: () => filtersRef.current.archived,
    setModal,
  });

  const filterCount = activeFilterCount(filters);
  const complete = allLoaded(list);
  const panelId = `${ids}-filters`;

  return (
    <section className="ap-admin-downloads" data-testid="admin-downloads" aria-label="Downloads">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <ListSearch
          label="Downloads durchsuchen"
          value={searchText}
          onChange={onSearchChange}
          testId="downloads-search"
          className="ap-downloads-search"
        />
        <FilterButtons
          panelOpen={panelOpen}
          onTogglePanel={() => setPanelOpen((open) => !open)}
          panelId={panelId}
          count={filterCount}
          onReset={() => applyFilters({ ...currentFilters(), archived: false, providerIds: [] })}
        />
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => setModal({ kind: 'settings' })}
          aria-label="Download-Einstellungen"
          title="Download-Einstellungen"
          data-testid="download-settings"
        >
          <i className="bi bi-gear" aria-hidden="true" />
        </button>
        {providers.length > 0 && (
          <a className="btn btn-primary" href={ADD_PATH} data-testid="add-download">
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            Download anlegen
          </a>
        )}
      </div>

      {panelOpen && (
        <FilterPanel
          id={panelId}
          filters={filters}
          providers={providers}
          onChange={(next) => applyFilters({ ...next, search: searchText.trim() })}
        />
      )}

      <AdminDownloadsTable
        downloads={list.items}
        loading={loading}
        filters={filters}
        onSort={(column) => applyFilters(sortedBy(currentFilters(), column))}
        pending={pending}
        actions={actions}
        allTime={allTime}
        announcements={announcements}
        isAdmin={isAdmin}
      />

      <LoadMore
        loaded={list.items.length}
        total={list.count}
        loading={loading}
        disabled={complete}
        onLoadMore={() => void load(filtersRef.current, 'append')}
      />

      <AdminDownloadsModals
        modal={modal}
        onClose={() => setModal(null)}
        productName={productName}
        browserZipLimitMb={browserZipLimitMb}
        isAdmin={isAdmin}
        deleting={deleting}
        onDelete={(download) => void onDelete(download)}
      />
    </section>
  );
}
