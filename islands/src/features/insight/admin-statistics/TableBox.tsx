// A table's box that scrolls sideways when the table is wider than a phone. A box that
// scrolls must be reachable by keyboard (WCAG 2.1.1): the tables here hold no buttons or links
// to focus, so the box itself is focusable, a region named after its table.
import type { ReactNode } from 'react';

export function TableBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-responsive" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
