// Loading of the contact editor: the customer group (GET, again on "Erneut versuchen") and the names of its lists.
import { useEffect, useState } from 'react';
import type { Dispatch } from 'react';
import { isApiError } from '../../../lib/api';
import { toastReadError } from '../../../lib/apiToasts';
import { fetchGroup, fetchListsOfContacts } from './api';
import type { EditorAction } from './editorState';
import { LOAD_FAILED } from './messages';
import type { Contact, ListRef } from './types';

export interface GroupLoader {
  loading: boolean;
  /** The message shown instead of the sections (null: none). */
  loadError: string | null;
  /** Loads the group again (after a failure that may pass). */
  retry: () => void;
  /** The lists known by name, by id. */
  listNames: Readonly<Record<number, ListRef>>;
  rememberListNames: (lists: readonly ListRef[]) => void;
  /** The names of the group's lists (also of providers the picker does not show). */
  loadListNames: (contacts: readonly Contact[], signal?: AbortSignal) => void;
}

export function useGroupLoader(
  customerNumber: string,
  fallbackNumber: number | null,
  dispatch: Dispatch<EditorAction>,
): GroupLoader {
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [listNames, setListNames] = useState<Readonly<Record<number, ListRef>>>({});

  function rememberListNames(lists: readonly ListRef[]) {
    if (lists.length === 0) return;
    setListNames((current) => {
      const next = { ...current };
      for (const list of lists) next[list.id] = { ...next[list.id], ...list };
      return next;
    });
  }

  function loadListNames(contacts: readonly Contact[], signal?: AbortSignal) {
    fetchListsOfContacts(
      contacts.map((c) => c.id),
      signal,
    )
      .then(rememberListNames)
      .catch((error: unknown) => {
        if (!signal?.aborted) console.error('[contact-editor] lists of the group', error);
      });
  }

  useEffect(() => {
    const controller = new AbortController();
    fetchGroup(customerNumber, controller.signal)
      .then((group) => {
        dispatch({ type: 'load', group, customerNumber: fallbackNumber });
        setLoadError(null);
        setLoading(false);
        loadListNames(group.content ?? [], controller.signal);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        if (isApiError(error) && (error.status === 400 || error.status === 404)) {
          setLoadError(error.message);
        } else {
          toastReadError(error);
          setLoadError(LOAD_FAILED);
        }
      });
    return () => controller.abort();
    // loadListNames only sets state (dispatch never changes).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [customerNumber, fallbackNumber, attempt]);

  function retry() {
    setLoading(true);
    setLoadError(null);
    setAttempt((n) => n + 1);
  }

  return { loading, loadError, retry, listNames, rememberListNames, loadListNames };
}
