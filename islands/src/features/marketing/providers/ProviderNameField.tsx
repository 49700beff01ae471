// The provider form's name field with its error message.
import type { RefObject } from 'react';
import type { ProviderFormIds } from './useProviderForm';

interface ProviderNameFieldProps {
  ids: ProviderFormIds;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
}

export function ProviderNameField({ ids, value, error, onChange, inputRef }: ProviderNameFieldProps) {
  return (
    <div className="mb-3">
      <label htmlFor={ids.name} className="form-label">
        Name
      </label>
      <input
        ref={inputRef}
        id={ids.name}
        type="text"
        className={`form-control${error ? ' is-invalid' : ''}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? ids.nameError : undefined}
        data-testid="provider-name"
      />
      {error && (
        <div id={ids.nameError} className="invalid-feedback">
          {error}
        </div>
      )}
    </div>
  );
}
