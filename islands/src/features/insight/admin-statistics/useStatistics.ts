// The statistics screen's figures for the chosen view: one summary request at a time (a newer
// choice aborts the older request, so a slow answer never overwrites it), the provider shares
// again only when the range changes. A refused range (400) keeps the figures shown and says
// why; the address bar follows the figures that are shown.
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/api';
import { toastReadError } from '../../../lib/apiToasts';
import { toast } from '../../../lib/toast';
import { fetchProviderShares, fetchSummary } from './api';
import { searchOfView } from './range';
import type { ProviderShare, StatisticsView, Summary } from './types';

export interface Shown {
  view: StatisticsView;
  summary: Summary;
}

function aborted(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function useStatistics(initial: StatisticsView, today: string) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [shares, setShares] = useState<ProviderShare[] | null>(null);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const summaryRequest = useRef<AbortController | null>(null);
  const sharesRequest = useRef<AbortController | null>(null);

  function loadSummary(view: StatisticsView) {
    summaryRequest.current?.abort();
    const controller = new AbortController();
    summaryRequest.current = controller;
    fetchSummary(view, controller.signal)
      .then((summary) => {
        setShown({ view, summary });
        setRangeError(null);
        const { pathname, hash } = window.location;
        window.history.replaceState(window.history.state, '', `${pathname}${searchOfView(view, today)}${hash}`);
      })
      .catch((error: unknown) => {
        if (aborted(error) || controller.signal.aborted) return;
        if (isApiError(error) && error.status === 400) {
          // The server's German reason, e.g. a range longer than a year.
          setRangeError(error.message);
          toast.error(error.message);
        } else {
          toastReadError(error);
        }
      })
      .finally(() => {
        if (summaryRequest.current === controller) setLoading(false);
      });
  }

  function loadShares(view: StatisticsView) {
    sharesRequest.current?.abort();
    const controller = new AbortController();
    sharesRequest.current = controller;
    fetchProviderShares(view.range, controller.signal)
      .then(setShares)
      .catch((error: unknown) => {
        if (aborted(error) || controller.signal.aborted) return;
        // A refused range is already told by the summary.
        if (!(isApiError(error) && error.status === 400)) toastReadError(error);
      });
  }

  useEffect(() => {
    loadSummary(initial);
    loadShares(initial);
    return () => {
      summaryRequest.current?.abort();
      sharesRequest.current?.abort();
    };
    // The first view only; later ones come through `choose`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Shows the figures of `next` (the shares too when its range differs from `previous`). */
  function choose(next: StatisticsView, previous: StatisticsView) {
    setLoading(true);
    loadSummary(next);
    if (next.range.from !== previous.range.from || next.range.to !== previous.range.to) loadShares(next);
  }

  return { shown, shares, rangeError, loading, choose };
}
