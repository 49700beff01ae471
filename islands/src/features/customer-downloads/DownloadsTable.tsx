// The customer's packages (spec §2 "Table columns"), with the same markup as the server page
// (src/app/pages/customer.rs `table`), so nothing moves when the island takes over.
import { useEffect, useRef } from 'react';
import type { MouseEvent } from 'react';
import StatusBadge, { endDateClass } from '../../components/StatusBadge';
import type { Download, DownloadFile, Tag } from '../../lib/downloads';
import { packageZipUrl } from '../../lib/downloads';
import { formatDateTime, formatFileSize } from '../../lib/format';
import { sortedBy, urlQuery } from './listState';
import type { ListState, SortColumn } from './listState';
import { checkState, fileKey } from './selection';
import type { CheckState, Selection } from './selection';
import { TagIcon } from './TagIcon';

const COLUMNS: readonly { column: SortColumn; label: string }[] = [
  { column: 'provider', label: 'Anbieter' },
  { column: 'name', label: 'Bezeichnung' },
  { column: 'startAt', label: 'Gültig ab' },
  { column: 'endAt', label: 'Gültig bis' },
  { column: 'updatedAt', label: 'Geändert' },
];

export interface DownloadsTableProps {
  items: readonly Download[];
  state: ListState;
  onSort: (next: ListState) => void;
  tags: ReadonlyMap<number, Tag>;
  selection: Selection;
  onSelectFiles: (download: Download, files: readonly DownloadFile[], on: boolean) => void;
  onSelectAll: (on: boolean) => void;
  busy: boolean;
}

/** A checkbox that also shows "some chosen" (indeterminate, which has no HTML attribute). */
function TriStateCheckbox({
  state,
  label,
  onChange,
  tour,
  testId,
}: {
  state: CheckState;
  label: string;
  onChange: (on: boolean) => void;
  tour?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <input
      ref={ref}
      className="form-check-input"
      type="checkbox"
      aria-label={label}
      data-tour={tour}
      data-testid={testId}
      checked={state === 'all'}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

function ariaSort(state: ListState, column: SortColumn): 'ascending' | 'descending' | undefined {
  if (state.sortBy !== column) return undefined;
  return state.sort === 'ASC' ? 'ascending' : 'descending';
}

function sortIcon(state: ListState, column: SortColumn): string {
  if (state.sortBy !== column) return 'bi bi-chevron-expand';
  return state.sort === 'ASC' ? 'bi bi-caret-up-fill' : 'bi bi-caret-down-fill';
}

function FileItem({
  download,
  file,
  tags,
  selected,
  onSelect,
}: {
  download: Download;
  file: DownloadFile;
  tags: ReadonlyMap<number, Tag>;
  selected: boolean;
  onSelect: (download: Download, files: readonly DownloadFile[], on: boolean) => void;
}) {
  const fileTags = file.tagsIds.map((id) => tags.get(id)).filter((tag): tag is Tag => tag !== undefined);
  return (
    <li className="ap-file">
      <input
        className="form-check-input me-1"
        type="checkbox"
        aria-label={`${file.name} auswählen`}
        data-tour="file-checkbox"
        checked={selected}
        onChange={(event) => onSelect(download, [file], event.target.checked)}
      />{' '}
      <a href={file.path} download={file.name} aria-label={`${file.name} herunterladen`} data-tour="file-link">
        <i className="bi bi-download" aria-hidden="true" /> {file.name}
      </a>{' '}
      {fileTags.length > 0 && (
        <span className="ap-file-tags" title={fileTags.map((tag) => tag.name).join(', ')}>
          {fileTags.map((tag) => (
            <TagIcon key={tag.id} tag={tag} />
          ))}
          <span className="visually-hidden">Tags: {fileTags.map((tag) => tag.name).join(', ')}</span>
        </span>
      )}{' '}
      <span className="text-secondary small">{formatFileSize(file.size)}</span> <StatusBadge badge={file.badge} />
    </li>
  );
}

function PackageRow({
  download,
  tags,
  selection,
  onSelectFiles,
}: {
  download: Download;
  tags: ReadonlyMap<number, Tag>;
  selection: Selection;
  onSelectFiles: DownloadsTableProps['onSelectFiles'];
}) {
  const provider = download.Provider;
  const files = download.Uploads;
  return (
    <tr className={download.archived ? 'ap-row-archived' : undefined} data-testid="download-row">
      <td>
        {files.length > 0 && (
          <TriStateCheckbox
            state={checkState(selection, files)}
            label={`Alle Dateien von ${download.name} auswählen`}
            onChange={(on) => onSelectFiles(download, files, on)}
          />
        )}
      </td>
      <td>
        {provider.Upload ? (
          <img className="ap-customer-logo" src={provider.Upload.path} alt={provider.name} />
        ) : (
          <span>{provider.name}</span>
        )}
      </td>
      <td>
        <span className="ap-package-name">{download.name}</span> <StatusBadge badge={download.badge} />
      </td>
      <td>{formatDateTime(download.startAt)}</td>
      <td className={endDateClass(download.badge) || undefined}>{formatDateTime(download.endAt)}</td>
      <td>{formatDateTime(download.updatedAt)}</td>
      <td>
        {files.length === 0 ? (
          <span className="text-warning-emphasis" data-testid="no-files">
            <i className="bi bi-exclamation-triangle-fill" aria-hidden="true" /> Keine Dateien
          </span>
        ) : (
          <>
            <ul className="list-unstyled mb-1 ap-file-list">
              {files.map((file) => (
                <FileItem
                  key={file.id}
                  download={download}
                  file={file}
                  tags={tags}
                  selected={selection.has(fileKey(download.id, file.id))}
                  onSelect={onSelectFiles}
                />
              ))}
            </ul>
            <a className="small" href={packageZipUrl(download.id)} data-tour="package-zip">
              <i className="bi bi-file-earmark-zip" aria-hidden="true" /> Alle Dateien als ZIP
            </a>
          </>
        )}
      </td>
    </tr>
  );
}

export function DownloadsTable({
  items,
  state,
  onSort,
  tags,
  selection,
  onSelectFiles,
  onSelectAll,
  busy,
}: DownloadsTableProps) {
  const allFiles = items.flatMap((download) => download.Uploads);

  function sortLink(column: SortColumn) {
    const next = sortedBy(state, column);
    return {
      href: `/user/downloads${urlQuery(next)}`,
      onClick: (event: MouseEvent<HTMLAnchorElement>) => {
        event.preventDefault();
        onSort(next);
      },
    };
  }

  return (
    <div className="table-responsive">
      <table className={`table align-middle ap-downloads-table${busy ? ' ap-busy' : ''}`} aria-busy={busy}>
        <caption className="visually-hidden">Ihre Download-Pakete</caption>
        <thead>
          <tr>
            <th scope="col" className="ap-col-select">
              <TriStateCheckbox
                state={checkState(selection, allFiles)}
                label="Alle Dateien auswählen"
                tour="select-all"
                testId="select-all"
                onChange={onSelectAll}
              />
            </th>
            {COLUMNS.map(({ column, label }) => (
              <th scope="col" key={column} aria-sort={ariaSort(state, column)} data-tour={`column-${column}`}>
                <a className="ap-sort" {...sortLink(column)}>
                  {label} <i className={sortIcon(state, column)} aria-hidden="true" />
                </a>
              </th>
            ))}
            <th scope="col">Dateien</th>
          </tr>
        </thead>
        <tbody>
          {items.map((download) => (
            <PackageRow
              key={download.id}
              download={download}
              tags={tags}
              selection={selection}
              onSelectFiles={onSelectFiles}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
