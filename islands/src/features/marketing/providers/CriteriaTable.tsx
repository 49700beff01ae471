// The table of a provider's criteria: the ID column sorts, each row has rename, contacts, activate/deactivate and delete.
import { EmptyRow } from '../../../components/ListScreen';
import { formatCount, formatDateTime } from '../../../lib/format';
import type { ProviderList } from '../../../lib/providerLists';
import type { ListFilters } from './listFilters';

interface CriteriaTableProps {
  lists: readonly ProviderList[];
  loading: boolean;
  syncing: boolean;
  sort: ListFilters['sort'];
  onSort: () => void;
  /** The rows with an action under way. */
  pending: ReadonlySet<number>;
  onRename: (list: ProviderList) => void;
  onToggle: (list: ProviderList) => void;
  onDelete: (list: ProviderList) => void;
}

export function CriteriaTable({ lists, loading, syncing, sort, onSort, pending, onRename, onToggle, onDelete }: CriteriaTableProps) {
  const sortLabel = sort === 'DESC' ? 'absteigend' : 'aufsteigend';
  return (
    <div className="table-responsive">
      <table className="table table-hover align-middle ap-criteria-table" data-testid="criteria-table" aria-busy={loading || syncing}>
        <thead>
          <tr>
            <th scope="col" aria-sort={sort === 'DESC' ? 'descending' : 'ascending'}>
              <button
                type="button"
                className="btn btn-link p-0 fw-semibold text-decoration-none text-reset"
                onClick={onSort}
                title={`Nach ID sortieren (derzeit ${sortLabel})`}
                data-testid="sort-id"
              >
                ID{' '}
                <i
                  className={`bi ${sort === 'DESC' ? 'bi-sort-numeric-down-alt' : 'bi-sort-numeric-down'}`}
                  aria-hidden="true"
                />
              </button>
            </th>
            <th scope="col">Name</th>
            <th scope="col">Abonnenten</th>
            <th scope="col">Aktualisiert</th>
            <th scope="col" className="text-end">
              Aktionen
            </th>
          </tr>
        </thead>
        <tbody>
          {lists.length === 0 && (
            <EmptyRow
              columns={5}
              loading={loading}
              loadingText="Kriterien werden geladen …"
              emptyText="Keine Kriterien gefunden."
              testId="criteria-empty"
            />
          )}
          {lists.map((list) => (
            <CriterionRow
              key={list.id}
              list={list}
              busy={pending.has(list.id)}
              onRename={() => onRename(list)}
              onToggle={() => onToggle(list)}
              onDelete={() => onDelete(list)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface CriterionRowProps {
  list: ProviderList;
  busy: boolean;
  onRename: () => void;
  onToggle: () => void;
  onDelete: () => void;
}

function CriterionRow({ list, busy, onRename, onToggle, onDelete }: CriterionRowProps) {
  return (
    <tr
      className={list.active ? undefined : 'ap-row-inactive'}
      data-testid="criteria-row"
      data-list-id={list.id}
      data-active={String(list.active)}
    >
      <td>{list.id}</td>
      <td>
        <span className="ap-criterion-name">{list.name}</span>
        {!list.active && <span className="badge text-bg-secondary ms-2">inaktiv</span>}
      </td>
      <td>
        {formatCount(list.totalSubscribers)}
        {list.totalBlocked > 0 && (
          <small className="text-body-secondary ms-1">({formatCount(list.totalBlocked)} blockiert)</small>
        )}
      </td>
      <td>{formatDateTime(list.updatedAt)}</td>
      <td className="text-end text-nowrap">
        <div className="btn-group btn-group-sm" role="group" aria-label={`Aktionen für ${list.name}`}>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={onRename}
            disabled={busy}
            title="Umbenennen"
            aria-label={`${list.name} umbenennen`}
            data-testid={`rename-${list.id}`}
          >
            <i className="bi bi-pencil" aria-hidden="true" />
          </button>
          <a
            className="btn btn-outline-secondary"
            href={`/admin/contacts?liste=${list.id}`}
            title="Kontakte anzeigen"
            aria-label={`Kontakte von ${list.name} anzeigen`}
            data-testid={`contacts-${list.id}`}
          >
            <i className="bi bi-person-lines-fill" aria-hidden="true" />
          </a>
          <button
            type="button"
            className={`btn ${list.active ? 'btn-outline-success' : 'btn-outline-secondary'}`}
            onClick={onToggle}
            disabled={busy}
            title={list.active ? 'Deaktivieren' : 'Aktivieren'}
            aria-label={list.active ? `${list.name} deaktivieren` : `${list.name} aktivieren`}
            data-testid={`toggle-${list.id}`}
          >
            {busy ? (
              <span className="spinner-border spinner-border-sm" aria-hidden="true" />
            ) : (
              <i className={`bi ${list.active ? 'bi-toggle-on' : 'bi-toggle-off'}`} aria-hidden="true" />
            )}
          </button>
          {!list.active && (
            <button
              type="button"
              className="btn btn-outline-danger"
              onClick={onDelete}
              disabled={busy}
              title="Löschen"
              aria-label={`${list.name} löschen`}
              data-testid={`delete-${list.id}`}
            >
              <i className="bi bi-trash" aria-hidden="true" />
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}
