// The statistics' two-column table: what was downloaded (a package, a file, a day) and how
// often, the count right-aligned in German digits. Each row keeps its own test attributes.
import type { ReactNode } from 'react';
import { formatCount } from '../../../lib/format';

export interface CountRow {
  key: string | number;
  /** The first cell's content: a name, or a button that opens it. */
  name: ReactNode;
  downloads: number;
  /** The row's `data-*` attributes. */
  attributes: Record<`data-${string}`, string | number>;
}

interface CountTableProps {
  /** The first column's header: "Download", "Datei", "Tag". */
  nameHeader: string;
  rows: readonly CountRow[];
  /** A caption for screen readers, when the table's section heading does not name it. */
  caption?: string;
  /** Long names wrap (file names) instead of widening the table. */
  wrapNames?: boolean;
  className?: string;
  testId?: string;
}

export function CountTable({ nameHeader, rows, caption, wrapNames = false, className = 'table table-sm', testId }: CountTableProps) {
  return (
    <table className={className} data-testid={testId}>
      {caption && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">{nameHeader}</th>
          <th scope="col" className="text-end">
            Downloads
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} {...row.attributes}>
            <td className={wrapNames ? 'text-break' : undefined}>{row.name}</td>
            <td className="text-end">{formatCount(row.downloads)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
