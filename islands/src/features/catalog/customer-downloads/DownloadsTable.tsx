// The customer's packages (spec §2 "Table columns"), with the same markup as the server page
// (src/app/pages/catalog/customer/markup.rs `table`), so nothing moves when the island takes over.
// One markup for every width: a table from the md breakpoint up, a card per row below it
// (style/main.css), with each file's thumbnail (it opens the preview dialog) or type icon.
import { useEffect, useRef } from 'react';
import type { MouseEvent } from 'react';
import StatusBadge, { endDateClass } from '../../../components/StatusBadge';
import type { Download, DownloadFile, Tag } from '../../../lib/downloads';
import { packageZipUrl } from '../../../lib/downloads';
import { typeIcon } from '../../../lib/fileIcon';
import { formatDateTime, formatFileSize } from '../../../lib/format';
import { sortedBy, urlQuery } from './listState';
import type { ListState, SortColumn } from './listState';
import { checkState, fileKey } from './selection';
import type { CheckState, Selection } from './selection';
import { TagIcon } from '../../../components/TagIcon';

/** The mark of what is new since the previous visit (not the spec's NEU badge). */
const NEW_SINCE_VISIT_TEXT = 'Neu seit Ihrem letzten Besuch';

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
  /** Opens the preview dialog on a file of a package. */
  onPreview: (download: Download, file: DownloadFile) => void;
  busy: boolean;
}

/** A checkbox that also shows "some chosen" (indeterminate, which has no HTML attribute). */
function TriStateCheckbox({
  state,
  label,
  onChange,
  tour,
  testId,
  id,
}: {
  state: CheckState;
  label: string;
  onChange: (on: boolean) => void;
  tour?: string;
  testId?: string;
  id?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <input
      ref={ref}
      id={id}
      className="form-check-input"
      type="checkbox"
      aria-label={id ? undefined : label}
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

/** The file's thumbnail (a link to the large preview, opened in the dialog), or its type icon. */
function FileVisual({ file, onPreview }: { file: DownloadFile; onPreview: () => void }) {
  if (file.previewUrl && file.previewLargeUrl) {
    return (
      <a
        className="ap-thumb"
        href={file.previewLargeUrl}
        aria-label={`Vorschau von ${file.name} öffnen`}
        data-tour="preview"
        onClick={(event) => {
          event.preventDefault();
          onPreview();
        }}
      >
        <img
          src={file.previewUrl}
          alt=""
          loading="lazy"
          width={file.previewWidth ?? undefined}
          height={file.previewHeight ?? undefined}
        />
      </a>
    );
  }
  return (
    <span className="ap-thumb ap-thumb-icon" aria-hidden="true">
      <i className={`bi ${typeIcon(file.ext)}`} />
    </span>
  );
}

function FileItem({
  download,
  file,
  tags,
  selected,
  onSelect,
  onPreview,
}: {
  download: Download;
  file: DownloadFile;
  tags: ReadonlyMap<number, Tag>;
  selected: boolean;
  onSelect: (download: Download, files: readonly DownloadFile[], on: boolean) => void;
  onPreview: (download: Download, file: DownloadFile) => void;
}) {
  const fileTags = file.tagsIds.map((id) => tags.get(id)).filter((tag): tag is Tag => tag !== undefined);
  return (
    <li className="ap-file">
      <input
        className="form-check-input ap-file-check"
        type="checkbox"
        aria-label={`${file.name} auswählen`}
        data-tour="file-checkbox"
        checked={selected}
        onChange={(event) => onSelect(download, [file], event.target.checked)}
      />
      <FileVisual file={file} onPreview={() => onPreview(download, file)} />
      <span className="ap-file-main">
        <a
          className="ap-file-name"
          href={file.path}
          download={file.name}
          aria-label={`${file.name} herunterladen`}
          data-tour="file-link"
        >
          <i className={`bi ${typeIcon(file.ext)} ap-file-type`} aria-hidden="true" /> {file.name}
        </a>{' '}
        <span className="ap-file-meta">
          {fileTags.length > 0 && (
            <span className="ap-file-tags" title={fileTags.map((tag) => tag.name).join(', ')}>
              {fileTags.map((tag) => (
                <TagIcon key={tag.id} tag={tag} />
              ))}
              <span className="visually-hidden">Tags: {fileTags.map((tag) => tag.name).join(', ')}</span>
            </span>
          )}{' '}
          <span className="text-secondary small">{formatFileSize(file.size)}</span> <StatusBadge badge={file.badge} />{' '}
          {file.newSinceVisit && <span className="ap-badge ap-badge-visit">{NEW_SINCE_VISIT_TEXT}</span>}
        </span>
      </span>
      {/* A large target for fingers; for assistive technology and the keyboard it repeats the
          name's link, so it is left out there. */}
      <a
        className="btn btn-outline-primary ap-file-download"
        href={file.path}
        download={file.name}
        aria-hidden="true"
        tabIndex={-1}
      >
        <i className="bi bi-download" aria-hidden="true" /> Herunterladen
      </a>
    </li>
  );
}

function DateCell({ className, label, at }: { className: string; label: string; at: string }) {
  return (
    <td className={className}>
      <span className="ap-cell-label">{label}: </span>
      {formatDateTime(at)}
    </td>
  );
}

function PackageRow({
  download,
  tags,
  selection,
  onSelectFiles,
  onPreview,
}: {
  download: Download;
  tags: ReadonlyMap<number, Tag>;
  selection: Selection;
  onSelectFiles: DownloadsTableProps['onSelectFiles'];
  onPreview: DownloadsTableProps['onPreview'];
}) {
  const provider = download.Provider;
  const files = download.Uploads;
  const endClass = endDateClass(download.badge);
  return (
    <tr className={download.archived ? 'ap-row-archived' : undefined} data-testid="download-row">
      <td className="ap-cell-select">
        {files.length > 0 && (
          <TriStateCheckbox
            state={checkState(selection, files)}
            label={`Alle Dateien von ${download.name} auswählen`}
            onChange={(on) => onSelectFiles(download, files, on)}
          />
        )}
      </td>
      <td className="ap-cell-provider">
        {provider.Upload ? (
          <img className="ap-customer-logo" src={provider.Upload.path} alt={provider.name} />
        ) : (
          <span>{provider.name}</span>
        )}
      </td>
      <td className="ap-cell-name">
        <span className="ap-package-name">{download.name}</span> <StatusBadge badge={download.badge} />{' '}
        {download.newSinceVisit && <span className="ap-badge ap-badge-visit">{NEW_SINCE_VISIT_TEXT}</span>}
      </td>
      <DateCell className="ap-cell-start" label="Gültig ab" at={download.startAt} />
      <DateCell className={endClass ? `ap-cell-end ${endClass}` : 'ap-cell-end'} label="Gültig bis" at={download.endAt} />
      <DateCell className="ap-cell-updated" label="Geändert" at={download.updatedAt} />
      <td className="ap-cell-files">
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
                  onPreview={onPreview}
                />
              ))}
            </ul>
            <a className="ap-package-zip" href={packageZipUrl(download.id)} data-tour="package-zip">
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
  onPreview,
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

  const allState = checkState(selection, allFiles);
  return (
    <>
    <div className="ap-select-all-bar form-check">
      <TriStateCheckbox
        state={allState}
        label="Alle Dateien auswählen"
        tour="select-all"
        id="ap-dl-select-all-cards"
        onChange={onSelectAll}
      />
      <label className="form-check-label" htmlFor="ap-dl-select-all-cards">
        Alle Dateien auswählen
      </label>
    </div>
    <div className="ap-table-wrap">
      <table className={`table align-middle ap-downloads-table${busy ? ' ap-busy' : ''}`} aria-busy={busy}>
        <caption className="visually-hidden">Ihre Download-Pakete</caption>
        <thead>
          <tr>
            <th scope="col" className="ap-col-select">
              <TriStateCheckbox
                state={allState}
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
              onPreview={onPreview}
            />
          ))}
        </tbody>
      </table>
    </div>
    </>
  );
}
