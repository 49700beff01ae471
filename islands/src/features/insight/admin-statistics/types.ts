// The statistics as the server sends them (openapi.json, tag `statistics`), and what the screen
// keeps of the user's choice.
import type { Schemas } from '../../../lib/apiTypes';

/** `GET /api/statistics/summary`: totals, every day of the range, the top lists. */
export type Summary = Schemas['Summary'];
/** Downloads on one German day, `date` as `YYYY-MM-DD`. */
export type DayCount = Schemas['DayCount'];
/** A package (or, in a package's `files`, a file) with its downloads. */
export type TopEntry = Schemas['TopEntry'];
export type TopFile = Schemas['TopFile'];
/** A package valid in the range that nobody downloaded. */
export type PackageRef = Schemas['PackageRef'];
/** `GET /api/statistics/packages/{id}`. */
export type PackageStatistics = Schemas['PackageStatistics'];
/** `GET /api/statistics/packages/{id}/customers` (admins only). */
export type CustomersPage = Schemas['CustomersPage'];
export type CustomerTook = Schemas['CustomerTook'];
/** `GET /api/statistics/providers`: one row per provider. */
export type ProviderShare = Schemas['ProviderShare'];
/** `GET /api/statistics/mails` and a package's `mails`: what its mails brought. */
export type PackageMails = Schemas['PackageMails'];
/** `GET /api/statistics/downloads`: a package's downloads of all time. */
export type PackageDownloads = Schemas['PackageDownloads'];

/** A provider the user may choose (the page's props). */
export interface ProviderChoice {
  id: number;
  name: string;
}

/** First and last German day, both `YYYY-MM-DD` and both included. */
export interface DayRange {
  from: string;
  to: string;
}

/** What the figures are for: a range and one provider, or all the user manages (null). */
export interface StatisticsView {
  range: DayRange;
  providerId: number | null;
}
