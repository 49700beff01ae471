// The provider form's preview: how the provider will look in the downloads table.
import type { Upload } from './types';
import { uploadUrl } from './types';

interface PreviewProps {
  name: string;
  upload: Upload | null;
  today: string;
}

/** How the provider will look in the downloads table. */
export function ProviderPreview({ name, upload, today }: PreviewProps) {
  const shownName = name.trim() === '' ? 'Anbieter' : name.trim();
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0 ap-provider-preview" data-testid="provider-preview">
        <caption className="caption-top small">Vorschau in der Download-Tabelle</caption>
        <thead>
          <tr>
            <th scope="col">Anbieter</th>
            <th scope="col">Name</th>
            <th scope="col">Geändert am</th>
            <th scope="col">Endet am</th>
            <th scope="col">Downloads</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {upload ? (
                <img src={uploadUrl(upload.path)} alt={shownName} width={100} className="ap-provider-logo-preview" />
              ) : (
                <span className="fw-semibold">{shownName}</span>
              )}
            </td>
            <td>Beispiel-Download</td>
            <td>{today}</td>
            <td className="text-body-secondary">TT.MM.JJJJ</td>
            <td>
              <button type="button" className="btn btn-sm btn-outline-secondary" disabled tabIndex={-1}>
                <i className="bi bi-download me-1" aria-hidden="true" />
                Dateien
              </button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
