// The filter panel of the admin downloads list: archived packages, and providers (all when
// none is chosen). Every change applies at once.
import { useId } from 'react';
import type { ProviderRef } from '../../../lib/downloads';
import type { ListFilters } from './listQuery';

export interface FilterPanelProps {
  id: string;
  filters: ListFilters;
  providers: ProviderRef[];
  onChange: (filters: ListFilters) => void;
}

export function FilterPanel({ id, filters, providers, onChange }: FilterPanelProps) {
  const ids = useId();

  function toggleProvider(providerId: number) {
    const providerIds = filters.providerIds.includes(providerId)
      ? filters.providerIds.filter((p) => p !== providerId)
      : [...filters.providerIds, providerId];
    onChange({ ...filters, providerIds });
  }

  return (
    <div id={id} className="card card-body mb-3" data-testid="filter-panel">
      <div className="row g-3">
        <div className="col-md-4">
          <div className="form-check form-switch">
            <input
              id={`${ids}-archived`}
              type="checkbox"
              role="switch"
              className="form-check-input"
              checked={filters.archived}
              onChange={(event) => onChange({ ...filters, archived: event.target.checked })}
              data-testid="filter-archived"
            />
            <label htmlFor={`${ids}-archived`} className="form-check-label">
              Archivierte Downloads anzeigen
            </label>
          </div>
        </div>
        <fieldset className="col-md-8">
          <legend className="form-label fs-6 mb-1">Anbieter</legend>
          <p className="small text-body-secondary mb-1">Ohne Auswahl werden alle Anbieter gezeigt.</p>
          {providers.map((provider) => (
            <div key={provider.id} className="form-check form-check-inline">
              <input
                id={`${ids}-provider-${provider.id}`}
                type="checkbox"
                className="form-check-input"
                checked={filters.providerIds.includes(provider.id)}
                onChange={() => toggleProvider(provider.id)}
                data-testid="filter-provider"
              />
              <label htmlFor={`${ids}-provider-${provider.id}`} className="form-check-label">
                {provider.name}
              </label>
            </div>
          ))}
        </fieldset>
      </div>
    </div>
  );
}
