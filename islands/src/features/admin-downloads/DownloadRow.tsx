// One package of the admin downloads list (spec §2 "Downloads list (admin)"): provider,
// description with badge, dates, file count and the action menu, which is enabled only when
// the user may change the package (the server's `mayManage`, spec §6).
import { useId } from 'react';
import StatusBadge, { endDateClass } from '../../components/StatusBadge';
import type { Download } from '../../lib/downloads';
import { formatDate, formatDateTime } from '../../lib/format';
import { useDropdown } from '../../lib/useDropdown';

export interface RowActions {
  onDuplicate: (download: Download) => void;
  onShowCriteria: (download: Download) => void;
  onDownloadFiles: (download: Download) => void;
  onToggleArchive: (download: Download) => void;
  onDelete: (download: Download) => void;
}

function editPath(id: number): string {
  return `/admin/download/edit/${id}`;
}

export function DownloadRow({ download, busy, actions }: { download: Download; busy: boolean; actions: RowActions }) {
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
      <td>
        <span className="me-2" data-testid="download-name-cell">
          {download.name}
        </span>
        <StatusBadge badge={download.badge} />
      </td>
      <td className="text-nowrap">{formatDate(download.startAt)}</td>
      <td className="text-nowrap">
        <span className={endDateClass(download.badge)}>{formatDate(download.endAt)}</span>
      </td>
      <td className="text-nowrap">{formatDateTime(download.updatedAt)}</td>
      <td className="text-end" data-testid="file-count">
        {download.Uploads.length}
      </td>
      <td className="text-end">
        <ActionMenu download={download} busy={busy} actions={actions} />
      </td>
    </tr>
  );
}

function ActionMenu({ download, busy, actions }: { download: Download; busy: boolean; actions: RowActions }) {
  const { open, setOpen, containerRef, toggleRef } = useDropdown<HTMLDivElement>();
  const menuId = useId();
  const allowed = download.mayManage;

  /** Closes the menu with the focus on its toggle, where a modal opened by the item returns it. */
  function run(action: (download: Download) => void) {
    return () => {
      toggleRef.current?.focus();
      setOpen(false);
      action(download);
    };
  }

  return (
    <div className="dropdown d-inline-block" ref={containerRef}>
      <button
        ref={toggleRef}
        type="button"
        className="btn btn-sm btn-outline-secondary"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={allowed ? `Aktionen für ${download.name}` : `Keine Aktionen für ${download.name} erlaubt`}
        title={allowed ? 'Aktionen' : 'Keine Berechtigung für diesen Anbieter'}
        disabled={!allowed || busy}
        onClick={() => setOpen((was) => !was)}
        data-testid="row-actions"
      >
        {busy ? (
          <span className="spinner-border spinner-border-sm" aria-hidden="true" />
        ) : (
          <i className="bi bi-three-dots-vertical" aria-hidden="true" />
        )}
      </button>
      {open && (
        <ul
          id={menuId}
          className="dropdown-menu dropdown-menu-end show text-start"
          data-bs-popper="static"
          data-testid="row-menu"
        >
          <li>
            <a className="dropdown-item" href={editPath(download.id)}>
              <i className="bi bi-pencil me-2" aria-hidden="true" />
              Bearbeiten
            </a>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(actions.onDuplicate)}>
              <i className="bi bi-copy me-2" aria-hidden="true" />
              Duplizieren
            </button>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(actions.onShowCriteria)}>
              <i className="bi bi-list-check me-2" aria-hidden="true" />
              Kriterien anzeigen
            </button>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(actions.onDownloadFiles)}>
              <i className="bi bi-download me-2" aria-hidden="true" />
              Dateien herunterladen
            </button>
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={run(actions.onToggleArchive)}>
              <i className={`bi ${download.archived ? 'bi-box-arrow-up' : 'bi-archive'} me-2`} aria-hidden="true" />
              {download.archived ? 'Archivierung aufheben' : 'Archivieren'}
            </button>
          </li>
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <button type="button" className="dropdown-item text-danger" onClick={run(actions.onDelete)}>
              <i className="bi bi-trash me-2" aria-hidden="true" />
              Löschen
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
