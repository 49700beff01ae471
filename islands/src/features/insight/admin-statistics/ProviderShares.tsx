// "Anteil der Händler je Anbieter": how many of each provider's dealers took anything in the
// range. A provider the user may choose is a button that shows the figures of that provider.
import type { RefObject } from 'react';
import { formatCount } from '../../../lib/format';
import { CsvLink } from './CsvLink';
import { formatShare } from './format';
import type { ProviderShare } from './types';

const SHARES_TITLE = 'Anteil der Händler je Anbieter';

export interface ProviderSharesProps {
  shares: readonly ProviderShare[] | null;
  /** The providers of the select; others are shown without a button. */
  choosable: ReadonlySet<number>;
  selectedId: number | null;
  onSelect: (id: number) => void;
  headingId: string;
  /** The heading, where the Händler total moves the focus. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  /** The shares as CSV (for the range shown). */
  csvHref: string;
}

export function ProviderShares({
  shares,
  choosable,
  selectedId,
  onSelect,
  headingId,
  headingRef,
  csvHref,
}: ProviderSharesProps) {
  return (
    <section className="mb-4" aria-labelledby={headingId} data-testid="provider-shares">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <h2 className="h5 mb-0" id={headingId} ref={headingRef} tabIndex={-1}>
          {SHARES_TITLE}
        </h2>
        <CsvLink href={csvHref} label={SHARES_TITLE} testId="csv-providers" />
      </div>
      {shares === null ? (
        <p className="text-body-secondary">Wird geladen …</p>
      ) : shares.length === 0 ? (
        <p className="text-body-secondary">Keine Anbieter.</p>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">Anbieter</th>
                <th scope="col" className="text-end">
                  Händler erreicht
                </th>
                <th scope="col" className="text-end">
                  Händler gesamt
                </th>
                <th scope="col" className="text-end">
                  Anteil
                </th>
              </tr>
            </thead>
            <tbody>
              {shares.map((share) => {
                const selected = share.id === selectedId;
                return (
                  <tr key={share.id} data-testid="provider-share-row" data-provider-id={share.id}>
                    <td>
                      {choosable.has(share.id) ? (
                        <button
                          type="button"
                          className={`btn btn-link p-0 text-start${selected ? ' fw-semibold' : ''}`}
                          aria-pressed={selected}
                          onClick={() => onSelect(share.id)}
                          title="Zahlen dieses Anbieters zeigen"
                          data-testid="select-provider"
                        >
                          {/* Not a coloured row: the link colour on a grey row misses 4.5:1. */}
                          {selected && <i className="bi bi-check2 me-1" aria-hidden="true" />}
                          {share.name}
                        </button>
                      ) : (
                        share.name
                      )}
                    </td>
                    <td className="text-end">{formatCount(share.customers)}</td>
                    <td className="text-end">{formatCount(share.dealers)}</td>
                    <td className="text-end">{formatShare(share.share)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
