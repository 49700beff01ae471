// "E-Mails je Paket" (issue 37): what the mails of the packages mailed in the range brought:
// mails sent and failed, unsubscribes, downloads through the mail's link, and the share of the
// mailed customer numbers that took anything afterwards. Read fresh for the figures shown (the
// mail queue changes them), with its own CSV; a package opens its own figures.
import { useEffect, useState } from 'react';
import { toastReadError } from '../../../lib/apiToasts';
import { formatCount } from '../../../lib/format';
import { fetchMailFigures } from './api';
import { CsvLink } from './CsvLink';
import { formatShare } from './format';
import type { PackageMails, StatisticsView } from './types';

const MAILS_TITLE = 'E-Mails je Paket';

export interface MailFiguresProps {
  /** The figures shown (range and provider). */
  view: StatisticsView;
  headingId: string;
  csvHref: string;
  onOpenPackage: (id: number, name: string) => void;
}

/** The rows for `view`; `null` while loading or after a failed read. */
function useMailFigures(view: StatisticsView): PackageMails[] | null {
  const { from, to } = view.range;
  const providerId = view.providerId;
  const key = `${from}|${to}|${providerId ?? ''}`;
  // The rows with the choice they answer: a newer choice shows "Wird geladen …" until its own.
  const [loaded, setLoaded] = useState<{ key: string; rows: PackageMails[] } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchMailFigures({ range: { from, to }, providerId }, controller.signal)
      .then((rows) => setLoaded({ key: `${from}|${to}|${providerId ?? ''}`, rows }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) toastReadError(error);
      });
    return () => controller.abort();
  }, [from, to, providerId]);
  return loaded?.key === key ? loaded.rows : null;
}

export function MailFigures({ view, headingId, csvHref, onOpenPackage }: MailFiguresProps) {
  const rows = useMailFigures(view);
  return (
    <section className="mb-4" aria-labelledby={headingId} data-testid="mail-figures">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <h2 className="h5 mb-0" id={headingId}>
          {MAILS_TITLE}
        </h2>
        <CsvLink href={csvHref} label={MAILS_TITLE} testId="csv-mails" />
      </div>
      {rows === null ? (
        <p className="text-body-secondary">Wird geladen …</p>
      ) : rows.length === 0 ? (
        <p className="text-body-secondary" data-testid="no-mails">
          In diesem Zeitraum wurde kein Paket per E-Mail angekündigt.
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">Paket</th>
                <th scope="col" className="text-end">
                  Gesendet
                </th>
                <th scope="col" className="text-end">
                  Fehlgeschlagen
                </th>
                <th scope="col" className="text-end">
                  Abmeldungen
                </th>
                <th scope="col" className="text-end">
                  Downloads über E-Mail
                </th>
                <th scope="col" className="text-end">
                  Danach geladen
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="mail-figures-row" data-package-id={row.id}>
                  <td>
                    <button
                      type="button"
                      className="btn btn-link p-0 text-start"
                      onClick={() => onOpenPackage(row.id, row.name)}
                      title="Zahlen dieses Pakets zeigen"
                    >
                      {row.name}
                    </button>
                  </td>
                  <td className="text-end">{formatCount(row.sent)}</td>
                  <td className="text-end">{formatCount(row.failed)}</td>
                  <td className="text-end">{formatCount(row.unsubscribes)}</td>
                  <td className="text-end">{formatCount(row.mailDownloads)}</td>
                  <td className="text-end">
                    {tookText(row)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "12 von 40 Kundennummern (30 %)". */
export function tookText(row: PackageMails): string {
  return `${formatCount(row.tookAfterwards)} von ${formatCount(row.mailedCustomers)} Kundennummern (${formatShare(row.tookShare)})`;
}
