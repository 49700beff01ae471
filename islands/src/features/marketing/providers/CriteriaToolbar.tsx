// The toolbar of a provider's criteria screen: the provider's logo or name, search, status filter and the action buttons.
import { ListSearch } from '../../../components/ListScreen';
import { auditHistoryPath } from '../../../lib/audit';
import type { ListFilters } from './listFilters';
import type { Provider } from './types';
import { uploadUrl } from './types';

interface CriteriaToolbarProps {
  provider: Provider;
  isAdmin: boolean;
  searchText: string;
  onSearchChange: (value: string) => void;
  /** Prefix of the status checkboxes' ids. */
  searchId: string;
  filters: ListFilters;
  onStatusChange: (status: 'active' | 'inactive', checked: boolean) => void;
  syncing: boolean;
  onSettings: () => void;
  onImport: () => void;
  onCreate: () => void;
}

export function CriteriaToolbar({
  provider,
  isAdmin,
  searchText,
  onSearchChange,
  searchId,
  filters,
  onStatusChange,
  syncing,
  onSettings,
  onImport,
  onCreate,
}: CriteriaToolbarProps) {
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3 ap-criteria-toolbar">
      <div className="me-2 ap-provider-brand" data-testid="provider-brand">
        {provider.Upload ? (
          <img src={uploadUrl(provider.Upload.path)} alt={provider.name} height={40} className="ap-provider-logo" />
        ) : (
          <span className="h4 mb-0">{provider.name}</span>
        )}
      </div>

      <ListSearch
        label="Kriterien durchsuchen"
        value={searchText}
        onChange={onSearchChange}
        testId="criteria-search"
        className="ap-criteria-search"
      />

      <fieldset className="d-flex align-items-center gap-3 mb-0 px-1">
        <legend className="visually-hidden">Status</legend>
        <div className="form-check mb-0">
          <input
            id={`${searchId}-active`}
            type="checkbox"
            className="form-check-input"
            checked={filters.active}
            onChange={(event) => onStatusChange('active', event.target.checked)}
            data-testid="status-active"
          />
          <label htmlFor={`${searchId}-active`} className="form-check-label">
            Aktiv
          </label>
        </div>
        <div className="form-check mb-0">
          <input
            id={`${searchId}-inactive`}
            type="checkbox"
            className="form-check-input"
            checked={filters.inactive}
            onChange={(event) => onStatusChange('inactive', event.target.checked)}
            data-testid="status-inactive"
          />
          <label htmlFor={`${searchId}-inactive`} className="form-check-label">
            Inaktiv
          </label>
        </div>
      </fieldset>

      <div className="d-flex flex-wrap gap-2">
        {isAdmin && (
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={onSettings}
            aria-label="Anbieter-Einstellungen"
            title="Anbieter-Einstellungen"
            data-testid="settings-button"
          >
            <i className="bi bi-gear" aria-hidden="true" />
          </button>
        )}
        {isAdmin && (
          <a
            className="btn btn-outline-secondary"
            href={auditHistoryPath('provider', provider.id)}
            data-testid="provider-history"
          >
            <i className="bi bi-clock-history me-1" aria-hidden="true" />
            Verlauf
          </a>
        )}
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={onImport}
          disabled={syncing}
          aria-haspopup="dialog"
          data-testid="import-button"
        >
          {syncing ? (
            <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
          ) : (
            <i className="bi bi-cloud-download me-1" aria-hidden="true" />
          )}
          Aus Marketing-Dienst importieren
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={onCreate}
          data-testid="create-criterion"
        >
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          Kriterium anlegen
        </button>
      </div>
    </div>
  );
}
