// The criteria (lists) of one provider: /admin/provider/{id} (spec §2 "Provider criteria screen").
// The first page (id descending, both statuses) comes with the props; filters, sorting and
// "Mehr laden" fetch from the server, writes update the table in memory (spec §4). The state
// and writes live in useCriteriaScreen.ts, toolbar and table in CriteriaToolbar/CriteriaTable.tsx.
import { ConfirmModal } from '../../../components/ConfirmModal';
import { LoadMore } from '../../../components/ListScreen';
import { allLoaded } from '../../../lib/pagedList';
import { CriteriaTable } from './CriteriaTable';
import { CriteriaToolbar } from './CriteriaToolbar';
import { CriterionNameModal } from './CriterionNameModal';
import { ImportListsModal } from './ImportListsModal';
import { withStatus } from './listFilters';
import { ProviderDeleteModal } from './ProviderDeleteModal';
import { ProviderFormModal } from './ProviderFormModal';
import type { ProviderList } from '../../../lib/providerLists';
import type { Paged, RawProvider } from './types';
import { useCriteriaScreen } from './useCriteriaScreen';

export { SEARCH_DEBOUNCE_MS } from './useCriteriaScreen';
export const PROVIDER_MISSING_MESSAGE = 'Anbieter existiert nicht!';

export interface ProviderCriteriaProps {
  /** null when the provider does not exist (or is not visible to the user). */
  provider: RawProvider | null;
  /** First page: id descending, both statuses, no search. */
  lists: Paged<ProviderList> | null;
  isAdmin: boolean;
}

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
  const screen = useCriteriaScreen(initialProvider, initialLists);
  const { list: lists, dispatch, filters, loading, load, applyFilters, currentFilters, provider, syncing, modal, setModal } = screen;
  const complete = allLoaded(lists);

  return (
    <section className="ap-criteria" data-testid="provider-criteria" aria-label={`Kriterien von ${provider.name}`}>
      <CriteriaToolbar
        provider={provider}
        isAdmin={isAdmin}
        searchText={screen.searchText}
        onSearchChange={screen.onSearchChange}
        searchId={screen.searchId}
        filters={filters}
        onStatusChange={(status, checked) => applyFilters(withStatus(currentFilters(), status, checked))}
        syncing={syncing}
        onSettings={() => setModal({ kind: 'settings' })}
        onImport={() => setModal({ kind: 'import' })}
        onCreate={() => setModal({ kind: 'create' })}
      />

      <CriteriaTable
        lists={lists.items}
        loading={loading}
        syncing={syncing}
        sort={filters.sort}
        onSort={() => applyFilters({ ...currentFilters(), sort: filters.sort === 'DESC' ? 'ASC' : 'DESC' })}
        pending={screen.pending}
        onRename={(list) => setModal({ kind: 'rename', list })}
        onToggle={(list) => void screen.onToggle(list)}
        onDelete={(list) => setModal({ kind: 'delete', list })}
      />

      <LoadMore
        loaded={lists.items.length}
        total={lists.count}
        loading={loading}
        disabled={complete || syncing}
        onLoadMore={() => void load(filters, 'append')}
      />

      {modal?.kind === 'create' && (
        <CriterionNameModal mode="create" onSubmit={screen.onCreate} onClose={() => setModal(null)} />
      )}
      {modal?.kind === 'rename' && (
        <CriterionNameModal
          mode="rename"
          initialName={modal.list.name}
          onSubmit={(name) => screen.onRename(modal.list, name)}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'delete' && (
        <ConfirmModal
          title="Kriterium löschen"
          confirmLabel="Löschen"
          danger
          busy={screen.deleting}
          onConfirm={() => void screen.onDelete(modal.list)}
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
          onSaved={screen.onProviderSaved}
          onDelete={() => setModal({ kind: 'deleteProvider' })}
        />
      )}
      {modal?.kind === 'import' && (
        <ImportListsModal
          provider={provider}
          onImported={(list) => dispatch({ type: 'insertFront', item: list })}
          onImportAll={() => {
            setModal(null);
            void screen.onSync();
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
