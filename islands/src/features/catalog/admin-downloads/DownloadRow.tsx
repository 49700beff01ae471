// One package of the admin downloads list (spec §2 "Downloads list (admin)"): provider,
// description with badge, dates, file count and the action menu, which is enabled only when
// the user may change the package (the server's `mayManage`, spec §6). The downloads of all
// time come from the statistics, and how its announcement stands from the mail queue (one call
// for the page each, see useRowFigures).
import { RowMenu } from '../../../components/ListScreen';
import StatusBadge, { endDateClass } from '../../../components/StatusBadge';
import { statusText } from '../../../lib/announcements';
import type { AnnouncementStatus } from '../../../lib/announcements';
import { auditHistoryPath } from '../../../lib/audit';
import type { Download } from '../../../lib/downloads';
import { formatCount, formatDate, formatDateTime } from '../../../lib/format';

export interface RowActions {
  onDuplicate: (download: Download) => void;
  onShowCriteria: (download: Download) => void;
  onDownloadFiles: (download: Download) => void;
  onToggleArchive: (download: Download) => void;
  onDelete: (download: Download) => void;
  onShowStatistics: (download: Download) => void;
}

function editPath(id: number): string {
  return `/admin/download/edit/${id}`;
}

export interface DownloadRowProps {
  download: Download;
  busy: boolean;
  actions: RowActions;
  /** Downloads of all time; null when unknown to this user, undefined while loading. */
  allTime: number | null | undefined;
  /** How its announcement stands; null or undefined when none was sent (or while loading). */
  announcement?: AnnouncementStatus | null;
  /** GS-Aktionsportal-Admin: the menu links to the package's history in the audit log. */
  isAdmin?: boolean;
}

export function DownloadRow({ download, busy, actions, allTime, announcement, isAdmin = false }: DownloadRowProps) {
  const provider = download.Provider;
  return (
    <tr
      className={download.archived ? 'ap-row-archived' : undefined}
      data-testid="download-row"
      data-download-id={download.id}
      data-archived={String(download.archived)}
    >
      <td>
        {provider.Upload ? (
          <img src={provider.Upload.path} alt={provider.name} className="ap-provider-logo" />
        ) : (
          <span className="fw-semibold">{provider.name}</span>
        )}
      </td>
      {/* A long name breaks anywhere rather than push the actions out of the table's box. */}
      <td className="text-break">
        <span className="me-2" data-testid="download-name-cell">
          {download.name}
        </span>
        <StatusBadge badge={download.badge} />
        {announcement && (
          <div className="small text-body-secondary mt-1" data-testid="row-announcement">
            <i className="bi bi-envelope me-1" aria-hidden="true" />
            {statusText(announcement.announcedAt, announcement.mails)}
          </div>
        )}
      </td>
      <td className="text-nowrap">{formatDate(download.startAt)}</td>
      <td className="text-nowrap">
        <span className={endDateClass(download.badge)}>{formatDate(download.endAt)}</span>
      </td>
      {/* Day and time may stand one above the other (the space is their only break). */}
      <td>{formatDateTime(download.updatedAt)}</td>
      <td
        className="text-end"
        data-testid="all-time-downloads"
        data-downloads={allTime ?? ''}
        data-loading={allTime === undefined ? 'true' : undefined}
      >
        <AllTime value={allTime} />
      </td>
      <td className="text-end" data-testid="file-count">
        {download.Uploads.length}
      </td>
      <td className="text-end">
        <ActionMenu download={download} busy={busy} actions={actions} isAdmin={isAdmin} />
      </td>
    </tr>
  );
}

function AllTime({ value }: { value: number | null | undefined }) {
  if (value === undefined) {
    return (
      <>
        <span aria-hidden="true">…</span>
        <span className="visually-hidden">wird geladen</span>
      </>
    );
  }
  if (value === null) {
    return (
      <>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">keine Angabe</span>
      </>
    );
  }
  return <>{formatCount(value)}</>;
}

interface ActionMenuProps {
  download: Download;
  busy: boolean;
  actions: RowActions;
  isAdmin: boolean;
}

function ActionMenu({ download, busy, actions, isAdmin }: ActionMenuProps) {
  const allowed = download.mayManage;
  return (
    <RowMenu
      label={allowed ? `Aktionen für ${download.name}` : `Keine Aktionen für ${download.name} erlaubt`}
      title={allowed ? 'Aktionen' : 'Keine Berechtigung für diesen Anbieter'}
      disabled={!allowed}
      busy={busy}
    >
      {(run) => (
        <>
          <li>
            <a className="dropdown-item" href={editPath(download.id)}>
              <i className="bi bi-pencil me-2" aria-hidden="true" />
              Bearbeiten
            </a>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(() => actions.onDuplicate(download))}>
              <i className="bi bi-copy me-2" aria-hidden="true" />
              Duplizieren
            </button>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(() => actions.onShowCriteria(download))}>
              <i className="bi bi-list-check me-2" aria-hidden="true" />
              Kriterien anzeigen
            </button>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(() => actions.onShowStatistics(download))}>
              <i className="bi bi-bar-chart me-2" aria-hidden="true" />
              Statistik
            </button>
          </li>
          {isAdmin && (
            <li>
              <a className="dropdown-item" href={auditHistoryPath('package', download.id)} data-testid="action-history">
                <i className="bi bi-clock-history me-2" aria-hidden="true" />
                Verlauf
              </a>
            </li>
          )}
          <li>
            <button type="button" className="dropdown-item" onClick={run(() => actions.onDownloadFiles(download))}>
              <i className="bi bi-download me-2" aria-hidden="true" />
              Dateien herunterladen
            </button>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(() => actions.onToggleArchive(download))}>
              <i className={`bi ${download.archived ? 'bi-box-arrow-up' : 'bi-archive'} me-2`} aria-hidden="true" />
              {download.archived ? 'Archivierung aufheben' : 'Archivieren'}
            </button>
          </li>
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <button type="button" className="dropdown-item text-danger" onClick={run(() => actions.onDelete(download))}>
              <i className="bi bi-trash me-2" aria-hidden="true" />
              Löschen
            </button>
          </li>
        </>
      )}
    </RowMenu>
  );
}
