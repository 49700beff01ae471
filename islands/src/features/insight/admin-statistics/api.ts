// The calls of the statistics (openapi.json, tag `statistics`).
import { apiFetch } from '../../../lib/api';
import type {
  CustomersPage,
  DayRange,
  PackageDownloads,
  PackageMails,
  PackageStatistics,
  ProviderShare,
  StatisticsView,
  Summary,
} from './types';

/** The most ids `/api/statistics/downloads` takes at once. */
export const MAX_IDS = 1000;

function rangeQuery(range: DayRange): URLSearchParams {
  return new URLSearchParams({ from: range.from, to: range.to });
}

export function fetchSummary(view: StatisticsView, signal?: AbortSignal): Promise<Summary> {
  const query = rangeQuery(view.range);
  if (view.providerId !== null) query.set('providerId', String(view.providerId));
  return apiFetch<Summary>(`/api/statistics/summary?${query.toString()}`, { signal });
}

export function fetchProviderShares(range: DayRange, signal?: AbortSignal): Promise<ProviderShare[]> {
  return apiFetch<ProviderShare[]>(`/api/statistics/providers?${rangeQuery(range).toString()}`, { signal });
}

/** What the mails of the packages mailed in the range brought (read fresh). */
export function fetchMailFigures(view: StatisticsView, signal?: AbortSignal): Promise<PackageMails[]> {
  const query = rangeQuery(view.range);
  if (view.providerId !== null) query.set('providerId', String(view.providerId));
  return apiFetch<PackageMails[]>(`/api/statistics/mails?${query.toString()}`, { signal });
}

export function fetchPackageStatistics(id: number, range: DayRange, signal?: AbortSignal): Promise<PackageStatistics> {
  return apiFetch<PackageStatistics>(`/api/statistics/packages/${id}?${rangeQuery(range).toString()}`, { signal });
}

/** Who took the package (admins only; as far back as the personal events are kept). */
export function fetchPackageCustomers(id: number, range: DayRange, signal?: AbortSignal): Promise<CustomersPage> {
  return apiFetch<CustomersPage>(`/api/statistics/packages/${id}/customers?${rangeQuery(range).toString()}`, {
    signal,
  });
}

/** All-time downloads of the packages (at most MAX_IDS); packages the user may not see are left out. */
export function fetchPackageDownloads(ids: readonly number[], signal?: AbortSignal): Promise<PackageDownloads[]> {
  return apiFetch<PackageDownloads[]>(`/api/statistics/downloads?ids=${ids.join(',')}`, { signal });
}

/** The views `/api/statistics/export.csv` exports. */
export type ExportView = 'days' | 'packages' | 'files' | 'untouched' | 'providers' | 'package' | 'mails';

/** The views the provider choice narrows (the provider shares and one package are not narrowed). */
const PROVIDER_VIEWS: ReadonlySet<ExportView> = new Set(['days', 'packages', 'files', 'untouched', 'mails']);

/**
 * The CSV file of one view (a plain link: the browser downloads it). `providerId` is sent only
 * for the views it narrows and when a provider is chosen (null: all the user manages);
 * `packageId` only for `package`, which needs it.
 */
export function exportUrl(
  view: ExportView,
  range: DayRange,
  providerId: number | null = null,
  packageId: number | null = null,
): string {
  const query = new URLSearchParams({ view, from: range.from, to: range.to });
  if (providerId !== null && PROVIDER_VIEWS.has(view)) query.set('providerId', String(providerId));
  if (packageId !== null && view === 'package') query.set('packageId', String(packageId));
  return `/api/statistics/export.csv?${query.toString()}`;
}

/** The CSV file of the range's packages (a plain link: the browser downloads it). */
export function csvUrl(range: DayRange): string {
  return `/api/statistics/packages.csv?${rangeQuery(range).toString()}`;
}
