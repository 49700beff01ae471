// Figures of the admin list's rows that come from another call than the list (the downloads of
// all time, how the announcement stands): asked for in one call per page of rows that arrives
// (the rows not asked for yet, at most MAX_IDS per call), never one per row. A package the
// answer leaves out has null.
import { useEffect, useRef, useState } from 'react';
import { toastReadError } from '../../../lib/apiToasts';
import { MAX_IDS } from '../../insight/admin-statistics/api';

/** Package id → its figure, or null when the answer left it out; absent: loading. */
export type RowFigures<T> = ReadonlyMap<number, T | null>;

/** Asks for the figures of some packages; answers them by package id. */
export type FetchRows<T> = (ids: number[], signal: AbortSignal) => Promise<ReadonlyMap<number, T>>;

function chunks(ids: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS) out.push(ids.slice(at, at + MAX_IDS));
  return out;
}

export function useRowFigures<T>(ids: readonly number[], fetchRows: FetchRows<T>): RowFigures<T> {
  const [known, setKnown] = useState<RowFigures<T>>(() => new Map());
  // Asked for (answered or under way): a row seen again, e.g. after sorting, costs no call.
  const asked = useRef(new Set<number>());
  const fetchRef = useRef(fetchRows);
  const key = ids.join(',');

  useEffect(() => {
    const askedIds = asked.current;
    const missing = key === '' ? [] : key.split(',').map(Number).filter((id) => !askedIds.has(id));
    if (missing.length === 0) return;
    for (const id of missing) askedIds.add(id);
    const controller = new AbortController();
    let settled = false;
    const settle = (found: ReadonlyMap<number, T>) => {
      settled = true;
      setKnown((before) => {
        const next = new Map(before);
        for (const id of missing) next.set(id, found.get(id) ?? null);
        return next;
      });
    };
    Promise.all(chunks(missing).map((chunk) => fetchRef.current(chunk, controller.signal)))
      .then((answers) => settle(new Map(answers.flatMap((answer) => [...answer]))))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        toastReadError(error);
        settle(new Map());
      });
    return () => {
      // More rows arrived (or the list went) before the answer: the next run asks for these too.
      if (settled) return;
      controller.abort();
      for (const id of missing) askedIds.delete(id);
    };
  }, [key]);

  return known;
}
