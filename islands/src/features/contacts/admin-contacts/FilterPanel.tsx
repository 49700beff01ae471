// The filter panel of the admin contacts table: status (new / active), blocked and double
// opt-in state. Every change applies at once.
import { useId } from 'react';
import { withStatus } from './listQuery';
import type { BlockedFilter, ContactFilters, DoubleOptInFilter } from './listQuery';

export interface FilterPanelProps {
  id: string;
  filters: ContactFilters;
  onChange: (filters: ContactFilters) => void;
}

const BLOCKED: { value: BlockedFilter; label: string }[] = [
  { value: 'all', label: 'alle' },
  { value: 'yes', label: 'ja' },
  { value: 'no', label: 'nein' },
];

const DOUBLE_OPT_IN: { value: DoubleOptInFilter; label: string }[] = [
  { value: 'all', label: 'alle' },
  { value: 'confirmed', label: 'bestätigt' },
  { value: 'pending', label: 'ausstehend' },
];

export function FilterPanel({ id, filters, onChange }: FilterPanelProps) {
  const ids = useId();
  return (
    <div id={id} className="card card-body mb-3" data-testid="filter-panel">
      <div className="row g-3">
        <fieldset className="col-md-4">
          <legend className="form-label fs-6 mb-1">Status</legend>
          <div className="form-check">
            <input
              id={`${ids}-new`}
              type="checkbox"
              className="form-check-input"
              checked={filters.statusNew}
              onChange={(event) => onChange(withStatus(filters, 'new', event.target.checked))}
              aria-describedby={`${ids}-status-hint`}
              data-testid="filter-status-new"
            />
            <label htmlFor={`${ids}-new`} className="form-check-label">
              Neu (letzte 7 Tage)
            </label>
          </div>
          <div className="form-check">
            <input
              id={`${ids}-active`}
              type="checkbox"
              className="form-check-input"
              checked={filters.statusActive}
              onChange={(event) => onChange(withStatus(filters, 'active', event.target.checked))}
              aria-describedby={`${ids}-status-hint`}
              data-testid="filter-status-active"
            />
            <label htmlFor={`${ids}-active`} className="form-check-label">
              Aktiv (älter)
            </label>
          </div>
          <p id={`${ids}-status-hint`} className="small text-body-secondary mb-0">
            Ohne Auswahl werden beide gezeigt.
          </p>
        </fieldset>
        <div className="col-md-4">
          <label htmlFor={`${ids}-blocked`} className="form-label">
            Gesperrt
          </label>
          <select
            id={`${ids}-blocked`}
            className="form-select"
            value={filters.blocked}
            onChange={(event) => onChange({ ...filters, blocked: event.target.value as BlockedFilter })}
            data-testid="filter-blocked"
          >
            {BLOCKED.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-4">
          <label htmlFor={`${ids}-doi`} className="form-label">
            Double-Opt-In
          </label>
          <select
            id={`${ids}-doi`}
            className="form-select"
            value={filters.doubleOptIn}
            onChange={(event) => onChange({ ...filters, doubleOptIn: event.target.value as DoubleOptInFilter })}
            data-testid="filter-double-opt-in"
          >
            {DOUBLE_OPT_IN.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
