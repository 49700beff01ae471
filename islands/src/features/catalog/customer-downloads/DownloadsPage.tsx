// The customer downloads page (spec §2): toolbar, filters, the table with "Weitere laden",
// and, loaded only when needed, the download manager, the preview dialog and the guided tour.
import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import type { Download, DownloadFile } from '../../../lib/downloads';
import { DownloadsTable } from './DownloadsTable';
import { isDefault, stateFromQuery, urlQuery } from './listState';
import type { ListState } from './listState';
import type { CustomerDownloadsProps } from './props';
import { EMPTY_SELECTION, fileKey, withFiles, withPackages } from './selection';
import type { Selection } from './selection';
import { Toolbar, resetState } from './Toolbar';
import { tourCompleted } from './tour/tourFlag';
import { NO_MORE_DOWNLOADS, useDownloadList } from './useDownloadList';

const DownloadManager = lazy(() => import('./manager/DownloadManager'));
const GuidedTour = lazy(() => import('./tour/GuidedTour'));
const PreviewDialog = lazy(() => import('./PreviewDialog'));

function NoPackages() {
  return (
    <div className="alert alert-info" role="status" data-testid="no-packages">
      <h2 className="h5">Noch keine Download-Pakete</h2>
      <p className="mb-0">
        Für Ihre Kundennummer sind derzeit keine Download-Pakete freigegeben. Sobald neues Werbematerial für Sie
        bereitsteht, finden Sie es hier. Bei Fragen hilft Ihnen Ihr Ansprechpartner gerne weiter.
      </p>
    </div>
  );
}

/** The text of the "new since your last visit" marks and chip. */
export const NEW_SINCE_VISIT = 'Neu seit Ihrem letzten Besuch';

/** Shows only what is new since the previous visit, with their count (none on a first visit). */
function NewSinceVisitChip({
  state,
  count,
  onChange,
}: {
  state: ListState;
  count: number | null;
  onChange: (next: ListState) => void;
}) {
  if (count === null && !state.newSinceVisit) return null;
  const on = state.newSinceVisit;
  const next = { ...state, newSinceVisit: !on };
  return (
    <div className="ap-chips mb-3">
      <a
        className={on ? 'btn btn-sm ap-chip ap-chip-on' : 'btn btn-sm ap-chip'}
        href={`/user/downloads${urlQuery(next)}`}
        role="button"
        aria-pressed={on}
        data-testid="new-since-chip"
        data-tour="new-since"
        onClick={(event) => {
          event.preventDefault();
          onChange(next);
        }}
      >
        <i className="bi bi-stars" aria-hidden="true" /> {NEW_SINCE_VISIT}{' '}
        <span className="badge rounded-pill ap-chip-count">{count ?? 0}</span>
      </a>
    </div>
  );
}

function NoMatches({ reset, onReset }: { reset: ListState; onReset: () => void }) {
  return (
    <div className="alert alert-secondary" role="status" data-testid="no-matches">
      Keine Downloads gefunden, die zu Ihrer Suche und Ihren Filtern passen.{' '}
      <a
        href={`/user/downloads${urlQuery(reset)}`}
        onClick={(event) => {
          event.preventDefault();
          onReset();
        }}
      >
        Suche und Filter zurücksetzen
      </a>
    </div>
  );
}

export function DownloadsPage({ page, query, tags, providers, productName, browserZipLimitMb }: CustomerDownloadsProps) {
  const list = useDownloadList(stateFromQuery(query), page);
  const tagsById = useMemo(() => new Map(tags.map((tag) => [tag.id, tag])), [tags]);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [managerOpen, setManagerOpen] = useState(false);
  const [preview, setPreview] = useState<{ downloadId: number; index: number } | null>(null);
  // The tour starts by itself on the first visit (no completion flag stored yet).
  const [tourRunning, setTourRunning] = useState(() => !tourCompleted());

  const { change, items, count, loading, loadMore, state, newSinceVisit } = list;
  const onSelectFiles = useCallback((download: Download, files: readonly DownloadFile[], on: boolean) => {
    setSelection((current) => withFiles(current, download, files, on));
  }, []);
  const onSelectAll = useCallback(
    (on: boolean) => setSelection((current) => withPackages(current, items, on)),
    [items],
  );
  const onPreview = useCallback((download: Download, file: DownloadFile) => {
    setPreview({ downloadId: download.id, index: Math.max(download.Uploads.indexOf(file), 0) });
  }, []);
  const onPreviewIndex = useCallback(
    (index: number) => setPreview((current) => (current ? { ...current, index } : current)),
    [],
  );
  const previewed = preview ? items.find((download) => download.id === preview.downloadId) : undefined;
  const previewedFile = previewed && preview ? previewed.Uploads[preview.index] : undefined;

  return (
    <div className="ap-customer-downloads">
      <Toolbar
        state={state}
        onChange={change}
        tags={tags}
        providers={providers}
        filtersOpen={filtersOpen}
        onFiltersOpen={setFiltersOpen}
        selectedCount={selection.size}
        onOpenManager={() => setManagerOpen(true)}
        onStartTour={() => setTourRunning(true)}
        tourRunning={tourRunning}
      />
      <NewSinceVisitChip state={state} count={newSinceVisit?.count ?? null} onChange={change} />
      {count === 0 && items.length === 0 ? (
        isDefault(state) ? (
          <NoPackages />
        ) : (
          <NoMatches reset={resetState(state)} onReset={() => change(resetState(state))} />
        )
      ) : (
        <>
          <DownloadsTable
            items={items}
            state={state}
            onSort={change}
            tags={tagsById}
            selection={selection}
            onSelectFiles={onSelectFiles}
            onSelectAll={onSelectAll}
            onPreview={onPreview}
            busy={loading === 'reload'}
          />
          <div className="d-flex align-items-center gap-3 ap-list-footer" data-tour="load-more">
            <span>
              <span className="visually-hidden">Geladen: </span>
              <span data-testid="loaded-total">{`${items.length}/${count}`}</span>
            </span>
            {items.length < count ? (
              <button
                type="button"
                className="btn btn-outline-primary"
                data-testid="load-more"
                disabled={loading !== 'idle'}
                onClick={loadMore}
              >
                Weitere laden
              </button>
            ) : (
              <p className="text-secondary mb-0" data-testid="no-more">
                {NO_MORE_DOWNLOADS}
              </p>
            )}
          </div>
        </>
      )}
      {managerOpen && (
        <Suspense fallback={null}>
          <DownloadManager
            selection={selection}
            productName={productName}
            browserZipLimitMb={browserZipLimitMb}
            onDeselect={(key) =>
              setSelection((current) => {
                const next = new Map(current);
                next.delete(key);
                return next;
              })
            }
            onClear={() => setSelection(EMPTY_SELECTION)}
            onClose={() => setManagerOpen(false)}
          />
        </Suspense>
      )}
      {previewed && previewedFile && preview && (
        <Suspense fallback={null}>
          <PreviewDialog
            download={previewed}
            index={preview.index}
            onIndex={onPreviewIndex}
            selected={selection.has(fileKey(previewed.id, previewedFile.id))}
            onSelect={onSelectFiles}
            onClose={() => setPreview(null)}
          />
        </Suspense>
      )}
      {tourRunning && (
        <Suspense fallback={null}>
          <GuidedTour onFiltersOpen={setFiltersOpen} onEnd={() => setTourRunning(false)} />
        </Suspense>
      )}
    </div>
  );
}
