// Toolbar and filter panel of the customer page (spec §2). The same markup as the server page
// (src/app/pages/catalog/customer.rs `toolbar`), which makes it a plain GET form without JavaScript;
// here every change asks the server at once (the search after a pause in typing).
import { useEffect, useRef } from 'react';
import type { FormEvent } from 'react';
import type { ProviderRef, Tag } from '../../../lib/downloads';
import { DEFAULT_STATE, activeFilterCount, toggled, urlQuery } from './listState';
import type { ListState, SearchMethod } from './listState';
import { TagIcon } from '../../../components/TagIcon';

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

  // The open panel closes on a press outside it and on Escape, like a dropdown; not during the
  // tour, whose own Escape ends it and closes the panel.
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
  }, [filtersOpen, onFiltersOpen, tourRunning]);

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
        <div className="ap-filter-panel card card-body shadow" data-testid="filter-panel">
          <div className="ap-sheet-head">
            <p className="h5 mb-0">Filter</p>
            <a
              className="btn-close"
              href={`/user/downloads${urlQuery(state)}`}
              aria-label="Filter schließen"
              data-testid="filters-close"
              onClick={(event) => {
                event.preventDefault();
                onFiltersOpen(false);
                details.current?.querySelector('summary')?.focus();
              }}
            />
          </div>
          <div className="form-check form-switch mb-3" data-tour="filter-archived">
            <input
              className="form-check-input"
              type="checkbox"
              role="switch"
              id="ap-dl-archived"
              name="archived"
              value="true"
              checked={state.archived}
              onChange={(event) => onChange({ ...state, archived: event.target.checked })}
            />
            <label className="form-check-label" htmlFor="ap-dl-archived">
              Archivierte Downloads anzeigen
            </label>
          </div>
          <fieldset className="mb-3" data-tour="filter-tags">
            <legend className="h6 mb-1">Tags</legend>
            <p className="small text-body-secondary mb-1">Keine Auswahl: Dateien mit und ohne Tags</p>
            {tags.map((tag) => (
              <div className="form-check" key={tag.id}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  id={`ap-dl-tag-${tag.id}`}
                  name="tagsIds"
                  value={tag.id}
                  checked={state.tagIds.includes(tag.id)}
                  onChange={(event) =>
                    onChange({ ...state, tagIds: toggled(state.tagIds, tag.id, event.target.checked) })
                  }
                />
                <label className="form-check-label" htmlFor={`ap-dl-tag-${tag.id}`}>
                  <TagIcon tag={tag} /> {tag.name}
                </label>
              </div>
            ))}
          </fieldset>
          <fieldset className="mb-3" data-tour="filter-providers">
            <legend className="h6 mb-1">Anbieter</legend>
            <p className="small text-body-secondary mb-1">Keine Auswahl: alle Anbieter</p>
            {providers.map((provider) => (
              <div className="form-check" key={provider.id}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  id={`ap-dl-provider-${provider.id}`}
                  name="providerIds"
                  value={provider.id}
                  checked={state.providerIds.includes(provider.id)}
                  onChange={(event) =>
                    onChange({
                      ...state,
                      providerIds: toggled(state.providerIds, provider.id, event.target.checked),
                    })
                  }
                />
                <label className="form-check-label" htmlFor={`ap-dl-provider-${provider.id}`}>
                  {provider.name}
                </label>
              </div>
            ))}
          </fieldset>
          <button className="btn btn-primary btn-sm" type="submit">
            Filter anwenden
          </button>
        </div>
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
