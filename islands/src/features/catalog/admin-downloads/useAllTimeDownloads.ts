// The downloads column of the admin list: each shown package's downloads of all time, asked for
// in one call per page of rows that arrives (the rows not asked for yet), never one per row.
// A package the answer leaves out (a moderator's view of another provider's package) has null.
import { useEffect, useRef, useState } from 'react';
import { toastReadError } from '../../../lib/apiToasts';
import { fetchPackageDownloads, MAX_IDS } from '../../insight/admin-statistics/api';

/** Package id → downloads of all time, or null when the answer left it out; absent: loading. */
export type AllTimeDownloads = ReadonlyMap<number, number | null>;

function chunks(ids: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let at = 0; at < ids.length; at += MAX_IDS) out.push(ids.slice(at, at + MAX_IDS));
  return out;
}

export function useAllTimeDownloads(ids: readonly number[]): AllTimeDownloads {
  const [known, setKnown] = useState<AllTimeDownloads>(() => new Map());
  // Asked for (answered or under way): a row seen again, e.g. after sorting, costs no call.
  const asked = useRef(new Set<number>());
  const key = ids.join(',');

  useEffect(() => {
    const askedIds = asked.current;
    const missing = key === '' ? [] : key.split(',').map(Number).filter((id) => !askedIds.has(id));
    if (missing.length === 0) return;
    for (const id of missing) askedIds.add(id);
    const controller = new AbortController();
    let settled = false;
    const settle = (counts: ReadonlyMap<number, number>) => {
      settled = true;
      setKnown((before) => {
        const next = new Map(before);
        for (const id of missing) next.set(id, counts.get(id) ?? null);
        return next;
      });
    };
    Promise.all(chunks(missing).map((chunk) => fetchPackageDownloads(chunk, controller.signal)))
      .then((answers) => settle(new Map(answers.flat().map((entry) => [entry.id, entry.downloads]))))
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
