// The table of the admin contacts screen: sortable column heads and one ContactRow per contact.
import { EmptyRow, SortHeader } from '../../../components/ListScreen';
import { ContactRow } from './ContactRow';
import type { RowActions } from './ContactRow';
import type { ContactFilters, SortBy } from './listQuery';
import { EMPTY_MESSAGE } from './messages';
import type { Contact } from './types';

const COLUMNS: { column: SortBy; label: string }[] = [
  { column: 'customerNumber', label: 'Kundennummer' },
  { column: 'email', label: 'E-Mail' },
  { column: 'createdAt', label: 'Erstellt' },
  { column: 'updatedAt', label: 'Geändert' },
];

interface ContactsTableProps {
  contacts: readonly Contact[];
  loading: boolean;
  filters: ContactFilters;
  onSort: (column: SortBy) => void;
  /** The rows with an action under way. */
  pending: ReadonlySet<number>;
  mayEditDetails: boolean;
  isAdmin: boolean;
  actions: RowActions;
}

export function ContactsTable({ contacts, loading, filters, onSort, pending, mayEditDetails, isAdmin, actions }: ContactsTableProps) {
  return (
    <div className="table-responsive-md">
      <table className="table table-hover align-middle ap-contacts-table" aria-busy={loading} data-testid="contacts-table">
        <thead>
          <tr>
            {COLUMNS.map(({ column, label }) => (
              <SortHeader
                key={column}
                column={column}
                label={label}
                sortBy={filters.sortBy}
                sort={filters.sort}
                onSort={() => onSort(column)}
              />
            ))}
            <th scope="col" className="text-end">
              Aktionen
            </th>
          </tr>
        </thead>
        <tbody>
          {contacts.length === 0 && (
            <EmptyRow
              columns={5}
              loading={loading}
              loadingText="Kontakte werden geladen …"
              emptyText={EMPTY_MESSAGE}
              testId="contacts-empty"
            />
          )}
          {contacts.map((contact) => (
            <ContactRow
              key={contact.id}
              contact={contact}
              busy={pending.has(contact.id)}
              mayEditDetails={mayEditDetails}
              isAdmin={isAdmin}
              actions={actions}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
