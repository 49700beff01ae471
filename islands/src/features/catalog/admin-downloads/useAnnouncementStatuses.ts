// How each shown package's announcement stands, for the admin list ("Angekündigt am … an N
// Kontakte (M gesendet, K fehlgeschlagen)"), one call per page of rows (see useRowFigures). A
// package not announced (or not the user's) has null.
import { fetchAnnouncementStatuses } from '../../../lib/announcements';
import type { AnnouncementStatus } from '../../../lib/announcements';
import { useRowFigures } from './useRowFigures';
import type { FetchRows, RowFigures } from './useRowFigures';

export type AnnouncementStatuses = RowFigures<AnnouncementStatus>;

const fetchStatuses: FetchRows<AnnouncementStatus> = async (ids, signal) =>
  new Map((await fetchAnnouncementStatuses(ids, signal)).map((status) => [status.downloadId, status]));

export function useAnnouncementStatuses(ids: readonly number[]): AnnouncementStatuses {
  return useRowFigures(ids, fetchStatuses);
}
