// The markup every admin list screen shares (contacts, downloads, a provider's criteria), beside
// the state of lib/useListScreen.ts: search box, filter toggle and reset, sortable header, the
// row shown when there are no rows, "load more", and a row's action menu. The German texts,
// test ids and classes are the ones the browser tests in end2end/ select by.
import { useId } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { ActionMenu } from './ActionMenu';
import type { RunAction } from './ActionMenu';

export interface ListSearchProps {
  /** The accessible name, e.g. "Downloads durchsuchen". */
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  /** Class of the wrapper beside `flex-grow-1`, e.g. `ap-downloads-search`. */
  className: string;
  style?: CSSProperties;
  /** Tooltip saying what the search looks at. */
  title?: string;
}

export function ListSearch({ label, value, onChange, testId, className, style, title }: ListSearchProps) {
  const id = useId();
  return (
    <div className={`flex-grow-1 ${className}`} style={style}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <div className="input-group">
        <span className="input-group-text" aria-hidden="true">
          <i className="bi bi-search" />
        </span>
        <input
          id={id}
          type="search"
          className="form-control"
          placeholder="Suchen …"
          title={title}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
      </div>
    </div>
  );
}

export interface FilterButtonsProps {
  panelOpen: boolean;
  onTogglePanel: () => void;
  /** The id of the filter panel the toggle opens. */
  panelId: string;
  /** Filters in effect (panel filters only; the search does not count). */
  count: number;
  /** Read before the count by screen readers only, e.g. "aktiv: ". */
  countPrefix?: string;
  onReset: () => void;
}

/** "Filter" (opens the panel, with the count of filters in effect) and "Filter zurücksetzen". */
export function FilterButtons({ panelOpen, onTogglePanel, panelId, count, countPrefix, onReset }: FilterButtonsProps) {
  return (
    <>
      <button
        type="button"
        className={`btn ${panelOpen ? 'btn-secondary' : 'btn-outline-secondary'}`}
        aria-expanded={panelOpen}
        aria-controls={panelId}
        onClick={onTogglePanel}
        data-testid="filters-toggle"
      >
        <i className="bi bi-funnel me-1" aria-hidden="true" />
        Filter
        {count > 0 && (
          <span className="badge text-bg-primary ms-1" data-testid="filter-count">
            {countPrefix && <span className="visually-hidden">{countPrefix}</span>}
            {count}
          </span>
        )}
      </button>
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={onReset}
        disabled={count === 0}
        data-testid="filters-reset"
      >
        <i className="bi bi-x-circle me-1" aria-hidden="true" />
        Filter zurücksetzen
      </button>
    </>
  );
}

export interface SortHeaderProps<C extends string> {
  column: C;
  label: string;
  /** The column the list is sorted by, and the direction. */
  sortBy: C;
  sort: 'ASC' | 'DESC';
  onSort: () => void;
}

export function SortHeader<C extends string>({ column, label, sortBy, sort, onSort }: SortHeaderProps<C>) {
  const active = sortBy === column;
  const ascending = sort === 'ASC';
  const icon = active ? (ascending ? 'bi-caret-up-fill' : 'bi-caret-down-fill') : 'bi-chevron-expand';
  return (
    <th scope="col" aria-sort={active ? (ascending ? 'ascending' : 'descending') : undefined}>
      <button
        type="button"
        className="btn btn-link p-0 fw-semibold text-decoration-none text-reset text-nowrap"
        onClick={onSort}
        data-testid={`sort-${column}`}
      >
        {label} <i className={`bi ${icon}`} aria-hidden="true" />
      </button>
    </th>
  );
}

export interface EmptyRowProps {
  columns: number;
  loading: boolean;
  /** E.g. "Downloads werden geladen …". */
  loadingText: string;
  /** E.g. "Keine Downloads gefunden.". */
  emptyText: string;
  testId: string;
}

/** The table's only row while it has none. */
export function EmptyRow({ columns, loading, loadingText, emptyText, testId }: EmptyRowProps) {
  return (
    <tr>
      <td colSpan={columns} className="text-center text-body-secondary py-4" data-testid={testId}>
        {loading ? loadingText : emptyText}
      </td>
    </tr>
  );
}

export interface LoadMoreProps {
  loaded: number;
  total: number;
  loading: boolean;
  /** All loaded, or another action under way. */
  disabled: boolean;
  onLoadMore: () => void;
}

/** "Mehr laden (loaded/total)". */
export function LoadMore({ loaded, total, loading, disabled, onLoadMore }: LoadMoreProps) {
  return (
    <div className="d-flex justify-content-center">
      <button
        type="button"
        className="btn btn-outline-secondary"
        onClick={onLoadMore}
        disabled={disabled || loading}
        data-testid="load-more"
      >
        {loading && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        Mehr laden (<span data-testid="loaded-total">{`${loaded}/${total}`}</span>)
      </button>
    </div>
  );
}

export interface RowMenuProps {
  /** The toggle's accessible name, also the menu's, e.g. "Aktionen für Sommeraktion". */
  label: string;
  title: string;
  disabled: boolean;
  /** An action of the row is under way: a spinner instead of the dots. */
  busy: boolean;
  /** The menu's items, their click handlers made by `run(action)`. */
  children: (run: RunAction) => ReactNode;
}

/** A row's "…" menu. */
export function RowMenu({ label, title, disabled, busy, children }: RowMenuProps) {
  return (
    <ActionMenu
      toggle={
        busy ? (
          <span className="spinner-border spinner-border-sm" aria-hidden="true" />
        ) : (
          <i className="bi bi-three-dots-vertical" aria-hidden="true" />
        )
      }
      toggleClassName="btn btn-sm btn-outline-secondary"
      toggleLabel={label}
      toggleTitle={title}
      toggleTestId="row-actions"
      disabled={disabled || busy}
      className="d-inline-block"
      menuClassName="text-start"
      menuLabel={label}
      menuTestId="row-menu"
    >
      {children}
    </ActionMenu>
  );
}
