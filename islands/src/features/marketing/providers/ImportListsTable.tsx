// The lists of a marketing folder in the import modal: a table with a checkbox per list, and "Mehr laden".
import { formatCount } from '../../../lib/format';
import type { FolderList } from './api';

export const ALREADY_TAKEN = 'bereits übernommen';

interface ImportListsTableProps {
  /** The loaded lists of the chosen folder, and how many it has. */
  page: { lists: FolderList[]; count: number; loading: boolean };
  /** The lists that are criteria already. */
  takenIds: ReadonlySet<number>;
  selected: ReadonlyMap<number, FolderList>;
  importing: boolean;
  /** Prefix of the checkboxes' ids. */
  ids: string;
  onToggle: (list: FolderList, on: boolean) => void;
  onLoadMore: () => void;
}

export function ImportListsTable({ page, takenIds, selected, importing, ids, onToggle, onLoadMore }: ImportListsTableProps) {
  const complete = page.lists.length >= page.count;
  return (
    <>
      <div className="table-responsive ap-import-lists mb-3">
        <table className="table table-sm table-hover align-middle mb-0" data-testid="import-lists-table">
          <thead>
            <tr>
              <th scope="col" className="ap-col-select">
                <span className="visually-hidden">Auswahl</span>
              </th>
              <th scope="col">ID</th>
              <th scope="col">Name</th>
              <th scope="col">Abonnenten</th>
            </tr>
          </thead>
          <tbody>
            {page.lists.map((list) => {
              const already = takenIds.has(list.id);
              const checkboxId = `${ids}-list-${list.id}`;
              return (
                <tr key={list.id} data-testid="import-list-row" data-brevo-id={list.id} data-taken={String(already)}>
                  <td>
                    <input
                      id={checkboxId}
                      type="checkbox"
                      className="form-check-input"
                      checked={already || selected.has(list.id)}
                      disabled={already || importing}
                      onChange={(event) => onToggle(list, event.target.checked)}
                      data-testid={`import-list-${list.id}`}
                    />
                  </td>
                  <td>{list.id}</td>
                  <td>
                    <label htmlFor={checkboxId} className="mb-0">
                      {list.name}
                    </label>
                    {already && <span className="badge text-bg-secondary ms-2">{ALREADY_TAKEN}</span>}
                  </td>
                  <td>{formatCount(list.totalSubscribers ?? 0)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="d-flex justify-content-center">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={onLoadMore}
          disabled={complete || page.loading || importing}
          data-testid="import-load-more"
        >
          {page.loading && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          Mehr laden (<span data-testid="import-loaded-total">{`${page.lists.length}/${page.count}`}</span>)
        </button>
      </div>
    </>
  );
}
