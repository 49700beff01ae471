// The provider form's logo field: the file input, upload status and error, and removing the current image.
import type { Upload } from './types';
import type { LogoUpload, ProviderFormIds } from './useProviderForm';
import { LOGO_TYPES } from './validation';

interface ProviderLogoFieldProps {
  ids: ProviderFormIds;
  upload: Upload | null;
  saving: boolean;
  logo: LogoUpload;
  onRemove: () => void;
}

export function ProviderLogoField({ ids, upload, saving, logo, onRemove }: ProviderLogoFieldProps) {
  const { fileRef, uploading, uploadError, onFileChange } = logo;
  return (
    <div className="mb-3">
      <label htmlFor={ids.logo} className="form-label">
        Logo
      </label>
      <input
        ref={fileRef}
        id={ids.logo}
        type="file"
        accept={LOGO_TYPES.join(',')}
        className={`form-control${uploadError ? ' is-invalid' : ''}`}
        onChange={(event) => void onFileChange(event)}
        disabled={uploading || saving}
        aria-invalid={uploadError ? true : undefined}
        aria-describedby={uploadError ? ids.logoError : undefined}
        data-testid="logo-input"
      />
      {uploadError && (
        <div id={ids.logoError} className="invalid-feedback">
          {uploadError}
        </div>
      )}
      {uploading && (
        <div className="form-text" role="status">
          <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
          Bild wird hochgeladen …
        </div>
      )}
      {upload && !uploading && (
        <div className="form-text d-flex align-items-center gap-2">
          <span>Aktuelles Bild: {upload.name}</span>
          <button type="button" className="btn btn-link btn-sm p-0" onClick={onRemove} data-testid="logo-remove">
            Bild entfernen
          </button>
        </div>
      )}
    </div>
  );
}
