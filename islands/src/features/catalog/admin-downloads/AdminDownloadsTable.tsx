// The table of the admin downloads list: sortable column heads and one DownloadRow per package.
import { EmptyRow, SortHeader } from '../../../components/ListScreen';
import type { Download, SortBy } from '../../../lib/downloads';
import { DownloadRow } from './DownloadRow';
import type { RowActions } from './DownloadRow';
import type { ListFilters } from './listQuery';
import type { AllTimeDownloads } from './useAllTimeDownloads';
import type { AnnouncementStatuses } from './useAnnouncementStatuses';

const COLUMNS: { column: SortBy; label: string }[] = [
  { column: 'provider', label: 'Anbieter' },
  { column: 'name', label: 'Beschreibung' },
  { column: 'startAt', label: 'Start' },
  { column: 'endAt', label: 'Ende' },
  { column: 'updatedAt', label: 'Geändert' },
];

interface AdminDownloadsTableProps {
  downloads: readonly Download[];
  loading: boolean;
  filters: ListFilters;
  onSort: (column: SortBy) => void;
  /** The rows with an action under way. */
  pending: ReadonlySet<number>;
  actions: RowActions;
  allTime: AllTimeDownloads;
  announcements: AnnouncementStatuses;
  isAdmin: boolean;
}

export function AdminDownloadsTable({
  downloads,
  loading,
  filters,
  onSort,
  pending,
  actions,
  allTime,
  announcements,
  isAdmin,
}: AdminDownloadsTableProps) {
  return (
    <div className="table-responsive-xl">
      <table className="table table-hover align-middle ap-downloads-admin-table" aria-busy={loading} data-testid="downloads-table">
        <thead>
          <tr>
            {COLUMNS.map(({ column, label }) => (
              <SortHeader
                key={column}
                column={column}
                label={label}
                sortBy={filters.sortBy}
                sort={filters.sort}
                onSort={() => onSort(column)}
              />
            ))}
            <th scope="col" className="text-end">
              Downloads
            </th>
            <th scope="col" className="text-end">
              Dateien
            </th>
            <th scope="col" className="text-end">
              Aktionen
            </th>
          </tr>
        </thead>
        <tbody>
          {downloads.length === 0 && (
            <EmptyRow
              columns={8}
              loading={loading}
              loadingText="Downloads werden geladen …"
              emptyText="Keine Downloads gefunden."
              testId="downloads-empty"
            />
          )}
          {downloads.map((download) => (
            <DownloadRow
              key={download.id}
              download={download}
              busy={pending.has(download.id)}
              actions={actions}
              allTime={allTime.get(download.id)}
              announcement={announcements.get(download.id)}
              isAdmin={isAdmin}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
