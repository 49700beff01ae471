// State and handlers of a provider's criteria screen: the paged lists with their filters, the open modal, and the writes.
import { useId, useState } from 'react';
import { ApiError, UNEXPECTED_ERROR_MESSAGE } from '../../../lib/api';
import { toastReadError, toastWriteError } from '../../../lib/apiToasts';
import { useListScreen } from '../../../lib/useListScreen';
import { toast } from '../../../lib/toast';
import { createList, deleteList, fetchLists, renameList, setListStatus, syncProviderLists } from './api';
import { announceProviderSaved } from './events';
import { applyListFilters, DEFAULT_LIST_FILTERS } from './listFilters';
import type { ListFilters } from './listFilters';
import { REMOVED_MESSAGE } from './ProviderDeleteModal';
import { CREATED_MESSAGE, UPDATED_MESSAGE } from './useProviderForm';
import { normalizeList, normalizeProvider } from './types';
import type { ProviderList } from '../../../lib/providerLists';
import type { Paged, Provider, RawProvider } from './types';
import { FOLDER_WARNING_MESSAGE } from './validation';

export const SEARCH_DEBOUNCE_MS = 400;

export type ModalState =
  | { kind: 'create' }
  | { kind: 'rename'; list: ProviderList }
  | { kind: 'delete'; list: ProviderList }
  | { kind: 'settings' }
  | { kind: 'deleteProvider' }
  | { kind: 'import' }
  | null;

export function useCriteriaScreen(initialProvider: RawProvider, initialLists: Paged<ProviderList> | null) {
  const [provider, setProvider] = useState<Provider>(() => normalizeProvider(initialProvider));
  const screen = useListScreen<ProviderList, ListFilters>({
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
  const { dispatch, filtersRef, pending, cancelLoad, setRowPending } = screen;
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

  return {
    ...screen,
    provider,
    syncing,
    modal,
    setModal,
    deleting,
    searchId,
    onCreate,
    onRename,
    onToggle,
    onDelete,
    onSync,
    onProviderSaved,
  };
}
