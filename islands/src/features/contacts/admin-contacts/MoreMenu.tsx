// The More menu of the contacts toolbar (spec §2): the double opt-in mail to all pending
// contacts, the sync manager (admin only) and the imports: from the planning system (Admin,
// BU-Moderator) and from Brevo (admin only; that is the sync manager too).
import { ActionMenu } from '../../../components/ActionMenu';

export interface MoreMenuProps {
  isAdmin: boolean;
  /** While a mass mail is being started or is running. */
  mailBusy: boolean;
  onSendAll: () => void;
  /** The sync manager ("Sync-Manager" and "Import aus Brevo"). */
  onSync: () => void;
  onImportPlanning: () => void;
}

export function MoreMenu({ isAdmin, mailBusy, onSendAll, onSync, onImportPlanning }: MoreMenuProps) {
  return (
    <ActionMenu
      toggle={
        <>
          <i className="bi bi-three-dots me-1" aria-hidden="true" />
          Mehr
        </>
      }
      toggleClassName="btn btn-outline-secondary"
      toggleTestId="more-menu-toggle"
      menuLabel="Weitere Aktionen"
      menuTestId="more-menu"
    >
      {(run) => (
        <>
          <li>
            <button
              type="button"
              className="dropdown-item"
              onClick={run(onSendAll)}
              disabled={mailBusy}
              data-testid="send-all-double-opt-in"
            >
              <i className="bi bi-envelope-paper me-2" aria-hidden="true" />
              Double-Opt-In an alle ausstehenden Kontakte senden
            </button>
          </li>
          {isAdmin && (
            <li>
              <button type="button" className="dropdown-item" onClick={run(onSync)} data-testid="open-sync">
                <i className="bi bi-arrow-repeat me-2" aria-hidden="true" />
                Sync-Manager
              </button>
            </li>
          )}
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <button
              type="button"
              className="dropdown-item"
              onClick={run(onImportPlanning)}
              data-testid="import-planning"
            >
              <i className="bi bi-box-arrow-in-down me-2" aria-hidden="true" />
              Import aus der Planung
            </button>
          </li>
          {isAdmin && (
            <li>
              <button type="button" className="dropdown-item" onClick={run(onSync)} data-testid="import-brevo">
                <i className="bi bi-cloud-download me-2" aria-hidden="true" />
                Import aus Brevo
              </button>
            </li>
          )}
        </>
      )}
    </ActionMenu>
  );
}
