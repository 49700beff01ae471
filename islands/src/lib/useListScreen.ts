// The state every admin list screen shares (contacts, downloads, a provider's criteria): the
// paged list kept in memory, the filters with a debounced search, one request at a time (a new
// one aborts the one before, so a slow answer never overwrites a newer one), and the rows with
// an action under way (their buttons are disabled until it ends).
import { useEffect, useReducer, useRef, useState } from 'react';
import { toastReadError } from './apiToasts';
import { type PagedListState, pagedListReducer } from './pagedList';

/** How long the search waits after the last key before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface Page<T> {
  content: T[];
  count: number;
}

export interface ListScreenOptions<T extends { id: number }, F extends { search: string }> {
  /** The first page as the server rendered it. */
  first: PagedListState<T>;
  initialFilters: F;
  /** One page for the filters, from `offset`. */
  fetchPage: (filters: F, offset: number, signal: AbortSignal) => Promise<Page<T>>;
  /** Called with new filters before they load (e.g. to keep them in the address bar). */
  onFiltersApplied?: (filters: F) => void;
  debounceMs?: number;
}

export function useListScreen<T extends { id: number }, F extends { search: string }>({
  first,
  initialFilters,
  fetchPage,
  onFiltersApplied,
  debounceMs = SEARCH_DEBOUNCE_MS,
}: ListScreenOptions<T, F>) {
  const [list, dispatch] = useReducer(pagedListReducer<T>, first);
  const [filters, setFilters] = useState<F>(initialFilters);
  const [searchText, setSearchText] = useState(initialFilters.search);
  const [loading, setLoading] = useState(false);
  const [pending, setPending] = useState<ReadonlySet<number>>(() => new Set());

  // The filters of the latest request: a debounced search must not bring back older ones.
  const filtersRef = useRef(initialFilters);
  const debounceRef = useRef<number | undefined>(undefined);
  const requestRef = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      window.clearTimeout(debounceRef.current);
      requestRef.current?.abort();
    },
    [],
  );

  async function load(next: F, mode: 'reset' | 'append') {
    requestRef.current?.abort();
    const controller = new AbortController();
    requestRef.current = controller;
    setLoading(true);
    try {
      const answer = await fetchPage(next, mode === 'reset' ? 0 : list.items.length, controller.signal);
      if (!controller.signal.aborted) dispatch({ type: mode, items: answer.content, count: answer.count });
    } catch (error) {
      if (!controller.signal.aborted) toastReadError(error);
    } finally {
      if (requestRef.current === controller) {
        requestRef.current = null;
        setLoading(false);
      }
    }
  }

  /** Stops a request under way (when the list is replaced by other means). */
  function cancelLoad() {
    requestRef.current?.abort();
  }

  /** New filters: shown at once, the list reloaded from the start. */
  function applyFilters(next: F) {
    window.clearTimeout(debounceRef.current);
    filtersRef.current = next;
    setFilters(next);
    onFiltersApplied?.(next);
    void load(next, 'reset');
  }

  /** The filters with the search as typed, even while its debounce is still pending. */
  function currentFilters(): F {
    return { ...filtersRef.current, search: searchText.trim() };
  }

  function onSearchChange(value: string) {
    setSearchText(value);
    window.clearTimeout(debounceRef.current);
    debounceRef.current = window.setTimeout(() => {
      const search = value.trim();
      if (search !== filtersRef.current.search) applyFilters({ ...filtersRef.current, search });
    }, debounceMs);
  }

  function setRowPending(id: number, on: boolean) {
    setPending((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  return {
    list,
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
  };
}
