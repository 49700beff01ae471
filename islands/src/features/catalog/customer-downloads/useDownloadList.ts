// The list against the server: the SSR first page as the start, a new first page when the
// search, filters or sort change (the search after a pause in typing), "Weitere laden" by 20.
// A newer request aborts the older one, so a slow stale answer never overwrites a fresh one.
// The address bar follows the list (replaceState), so a reload shows the same.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { toastReadError } from '../../../lib/apiToasts';
import { fetchCustomerDownloads } from '../../../lib/downloads';
import type { Download, DownloadPage } from '../../../lib/downloads';
import { pagedListReducer } from '../../../lib/pagedList';
import { toast } from '../../../lib/toast';
import { SEARCH_DEBOUNCE_MS } from './constants';
import { apiQuery, urlQuery } from './listState';
import type { ListState } from './listState';

export type Loading = 'idle' | 'reload' | 'more';

export const NO_MORE_DOWNLOADS = 'Keine weiteren Downloads vorhanden.';

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function useDownloadList(initialState: ListState, initialPage: DownloadPage) {
  const [state, setState] = useState(initialState);
  const [list, dispatch] = useReducer(pagedListReducer<Download>, {
    items: initialPage.content,
    count: initialPage.count,
  });
  const [loading, setLoading] = useState<Loading>('idle');
  // What is new since the previous visit: its count comes with every first page.
  const [newSinceVisit, setNewSinceVisit] = useState(initialPage.newSinceVisit ?? null);
  const request = useRef<AbortController | null>(null);
  const debounce = useRef<number | undefined>(undefined);

  const cancel = useCallback(() => {
    window.clearTimeout(debounce.current);
    request.current?.abort();
    request.current = null;
  }, []);

  useEffect(() => cancel, [cancel]);

  // The address bar keeps the list's parameters and how many rows are shown.
  useEffect(() => {
    const query = urlQuery(state, list.items.length);
    if (query !== window.location.search) {
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${query}`);
    }
  }, [state, list.items.length]);

  const load = useCallback(
    async (next: ListState, mode: Exclude<Loading, 'idle'>, offset: number) => {
      cancel();
      const controller = new AbortController();
      request.current = controller;
      setLoading(mode);
      try {
        const page = await fetchCustomerDownloads(apiQuery(next, offset), controller.signal);
        if (controller.signal.aborted) return;
        if (mode === 'more') {
          if (page.content.length === 0) toast.warning(NO_MORE_DOWNLOADS);
          dispatch({ type: 'append', items: page.content, count: page.count });
        } else {
          dispatch({ type: 'reset', items: page.content, count: page.count });
          setNewSinceVisit(page.newSinceVisit ?? null);
        }
      } catch (error) {
        if (!isAbort(error)) toastReadError(error);
      } finally {
        if (request.current === controller) {
          request.current = null;
          setLoading('idle');
        }
      }
    },
    [cancel],
  );

  /** New search, filters or sort: a fresh first page; typing waits for a pause first. */
  const change = useCallback(
    (next: ListState, options: { debounce?: boolean } = {}) => {
      setState(next);
      cancel();
      if (options.debounce) {
        setLoading('reload');
        debounce.current = window.setTimeout(() => void load(next, 'reload', 0), SEARCH_DEBOUNCE_MS);
      } else {
        void load(next, 'reload', 0);
      }
    },
    [cancel, load],
  );

  const loadMore = useCallback(() => {
    void load(state, 'more', list.items.length);
  }, [load, state, list.items.length]);

  return { state, change, items: list.items, count: list.count, loading, loadMore, newSinceVisit };
}
