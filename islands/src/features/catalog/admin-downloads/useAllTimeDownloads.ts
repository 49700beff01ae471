// The downloads column of the admin list: each shown package's downloads of all time (see
// useRowFigures). A package the answer leaves out (a moderator's view of another provider's
// package) has null.
import { fetchPackageDownloads } from '../../insight/admin-statistics/api';
import { useRowFigures } from './useRowFigures';
import type { FetchRows, RowFigures } from './useRowFigures';

/** Package id → downloads of all time, or null when the answer left it out; absent: loading. */
export type AllTimeDownloads = RowFigures<number>;

const fetchDownloads: FetchRows<number> = async (ids, signal) =>
  new Map((await fetchPackageDownloads(ids, signal)).map((entry) => [entry.id, entry.downloads]));

export function useAllTimeDownloads(ids: readonly number[]): AllTimeDownloads {
  return useRowFigures(ids, fetchDownloads);
}
