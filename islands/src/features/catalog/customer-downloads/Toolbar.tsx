// Toolbar and filter panel of the customer page (spec §2). The same markup as the server page
// (src/app/pages/catalog/customer.rs `toolbar`), which makes it a plain GET form without JavaScript;
// here every change asks the server at once (the search after a pause in typing).
import { useEffect, useRef } from 'react';
import type { FormEvent, RefObject } from 'react';
import type { ProviderRef, Tag } from '../../../lib/downloads';
import { DEFAULT_STATE, activeFilterCount, urlQuery } from './listState';
import type { ListState, SearchMethod } from './listState';
import { ToolbarFilterPanel } from './ToolbarFilterPanel';

export interface ToolbarProps {
  state: ListState;
  onChange: (next: ListState, options?: { debounce?: boolean }) => void;
  tags: readonly Tag[];
  providers: readonly ProviderRef[];
  filtersOpen: boolean;
  onFiltersOpen: (open: boolean) => void;
  selectedCount: number;
  onOpenManager: () => void;
  onStartTour: () => void;
  /** The guided tour runs: it opens and closes the panel per step, so a press on its tooltip
   * ("Weiter") must not close the panel under the step it points at. */
  tourRunning?: boolean;
}

/** What the reset button returns to; the sort stays. */
export function resetState(state: ListState): ListState {
  return { ...DEFAULT_STATE, sortBy: state.sortBy, sort: state.sort };
}

/**
 * The open panel closes on a press outside it and on Escape, like a dropdown; not during the
 * tour, whose own Escape ends it and closes the panel.
 */
function useCloseOnOutside(
  details: RefObject<HTMLDetailsElement | null>,
  filtersOpen: boolean,
  tourRunning: boolean,
  onFiltersOpen: (open: boolean) => void,
) {
  useEffect(() => {
    if (!filtersOpen || tourRunning) return;
    function onPointerDown(event: PointerEvent) {
      if (event.target instanceof Node && details.current?.contains(event.target)) return;
      onFiltersOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      onFiltersOpen(false);
      details.current?.querySelector('summary')?.focus();
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [details, filtersOpen, onFiltersOpen, tourRunning]);
}

export function Toolbar({
  state,
  onChange,
  tags,
  providers,
  filtersOpen,
  onFiltersOpen,
  selectedCount,
  onOpenManager,
  onStartTour,
  tourRunning = false,
}: ToolbarProps) {
  const filters = activeFilterCount(state);
  const reset = resetState(state);
  const details = useRef<HTMLDetailsElement>(null);

  useCloseOnOutside(details, filtersOpen, tourRunning, onFiltersOpen);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Enter in the search box: search now rather than after the pause.
    onChange(state);
    onFiltersOpen(false);
  }

  return (
    <form
      className="ap-toolbar d-flex flex-wrap align-items-start gap-2 mb-3"
      method="get"
      action="/user/downloads"
      role="search"
      aria-label="Downloads durchsuchen"
      onSubmit={submit}
    >
      <div className="input-group ap-search" data-tour="search">
        <label className="visually-hidden" htmlFor="ap-dl-search">
          Suchbegriff
        </label>
        <input
          id="ap-dl-search"
          className="form-control"
          type="search"
          name="search"
          placeholder="Suchen …"
          autoComplete="off"
          value={state.search}
          onChange={(event) => onChange({ ...state, search: event.target.value }, { debounce: true })}
        />
        <label className="visually-hidden" htmlFor="ap-dl-mode">
          Suchen nach
        </label>
        <select
          id="ap-dl-mode"
          className="form-select ap-search-mode"
          name="searchMethode"
          data-tour="mode"
          value={state.method}
          onChange={(event) => onChange({ ...state, method: event.target.value as SearchMethod })}
        >
          <option value="byName">Bezeichnung</option>
          <option value="byFilename">Dateiname</option>
        </select>
        <button className="btn btn-outline-secondary" type="submit" aria-label="Suchen">
          <i className="bi bi-search" aria-hidden="true" />
        </button>
      </div>
      {state.sortBy && (
        <>
          <input type="hidden" name="sortBy" value={state.sortBy} />
          <input type="hidden" name="sort" value={state.sort} />
        </>
      )}
      <details
        ref={details}
        className="ap-filters"
        open={filtersOpen}
        onToggle={(event) => onFiltersOpen(event.currentTarget.open)}
      >
        <summary className="btn btn-outline-secondary" data-tour="filters" data-testid="filters-toggle">
          <i className="bi bi-funnel" aria-hidden="true" />
          <span className="ap-label"> Filter</span>
          {filters > 0 && (
            <span className="badge text-bg-primary ms-1" data-testid="filter-count">
              {filters}
              <span className="visually-hidden"> aktiv</span>
            </span>
          )}
        </summary>
        <ToolbarFilterPanel
          state={state}
          onChange={onChange}
          tags={tags}
          providers={providers}
          onClose={() => {
            onFiltersOpen(false);
            details.current?.querySelector('summary')?.focus();
          }}
        />
      </details>
      <a
        className="btn btn-outline-secondary"
        href={`/user/downloads${urlQuery(reset)}`}
        data-tour="reset"
        data-testid="filters-reset"
        onClick={(event) => {
          event.preventDefault();
          onChange(reset);
        }}
      >
        <i className="bi bi-arrow-counterclockwise" aria-hidden="true" />
        <span className="ap-label"> Zurücksetzen</span>
      </a>
      <button
        type="button"
        className="btn btn-primary ms-auto"
        data-tour="manager"
        data-testid="manager-open"
        onClick={onOpenManager}
      >
        <i className="bi bi-file-earmark-zip" aria-hidden="true" />
        <span className="ap-label"> Download-Manager</span>{' '}
        <span className="badge text-bg-light" data-testid="selected-count">
          {selectedCount}
        </span>
        <span className="visually-hidden"> Dateien ausgewählt</span>
      </button>
      <button
        type="button"
        className="btn btn-outline-secondary"
        data-tour="help"
        data-testid="tour-start"
        aria-label="Hilfe: Rundgang starten"
        title="Hilfe: Rundgang starten"
        onClick={onStartTour}
      >
        <i className="bi bi-question-circle" aria-hidden="true" />
      </button>
    </form>
  );
}
