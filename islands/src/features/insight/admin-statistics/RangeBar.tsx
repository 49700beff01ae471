// The choice above the figures: the range ("Von", "Bis"), the provider and the CSV export of
// the range shown. The date fields are controlled as typed; the parent decides when a complete
// range is loaded.
import { useId } from 'react';
import type { ProviderChoice } from './types';

export interface RangeBarProps {
  from: string;
  to: string;
  onFromChange: (value: string) => void;
  onToChange: (value: string) => void;
  providers: readonly ProviderChoice[];
  providerId: number | null;
  onProviderChange: (id: number | null) => void;
  /** The server's message about the range (400), shown under the fields until a range loads. */
  error: string | null;
  csvHref: string;
}

export function RangeBar(props: RangeBarProps) {
  const { from, to, onFromChange, onToChange, providers, providerId, onProviderChange, error, csvHref } = props;
  const ids = useId();
  const errorId = `${ids}-error`;
  const invalid = error !== null;
  return (
    <form className="row g-2 align-items-end mb-3" onSubmit={(event) => event.preventDefault()} data-testid="range-bar">
      <div className="col-12 col-sm-6 col-md-auto">
        <label htmlFor={`${ids}-from`} className="form-label mb-1">
          Von
        </label>
        <input
          id={`${ids}-from`}
          type="date"
          className={`form-control${invalid ? ' is-invalid' : ''}`}
          value={from}
          onChange={(event) => onFromChange(event.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          required
          data-testid="range-from"
        />
      </div>
      <div className="col-12 col-sm-6 col-md-auto">
        <label htmlFor={`${ids}-to`} className="form-label mb-1">
          Bis
        </label>
        <input
          id={`${ids}-to`}
          type="date"
          className={`form-control${invalid ? ' is-invalid' : ''}`}
          value={to}
          onChange={(event) => onToChange(event.target.value)}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          required
          data-testid="range-to"
        />
      </div>
      <div className="col-12 col-sm-6 col-md-auto">
        <label htmlFor={`${ids}-provider`} className="form-label mb-1">
          Anbieter
        </label>
        <select
          id={`${ids}-provider`}
          className="form-select"
          value={providerId === null ? '' : String(providerId)}
          onChange={(event) => onProviderChange(event.target.value === '' ? null : Number(event.target.value))}
          data-testid="provider-select"
        >
          <option value="">Alle Anbieter</option>
          {providers.map((provider) => (
            <option key={provider.id} value={provider.id}>
              {provider.name}
            </option>
          ))}
        </select>
      </div>
      <div className="col-12 col-sm-6 col-md-auto ms-md-auto">
        <a className="btn btn-outline-primary" href={csvHref} download data-testid="csv-export">
          <i className="bi bi-filetype-csv me-1" aria-hidden="true" />
          CSV exportieren
        </a>
      </div>
      {invalid && (
        <div id={errorId} className="col-12 text-danger" data-testid="range-error">
          {error}
        </div>
      )}
    </form>
  );
}
