// One package's figures for a range, in a dialog: its totals, downloads per day, its files, and
// for admins who took it ("Wer hat geladen?"). Opened from the statistics screen and from the
// admin downloads list's row menu.
import { useEffect, useId, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { toastReadError } from '../../../lib/apiToasts';
import { formatCount, formatDateTime } from '../../../lib/format';
import { exportUrl, fetchPackageCustomers, fetchPackageStatistics } from './api';
import { CountTable } from './CountTable';
import { CsvLink } from './CsvLink';
import { DayChart } from './DayChart';
import { formatRange } from './format';
import { tookText } from './MailFigures';
import { TableBox } from './TableBox';
import type { CustomersPage, DayRange, PackageMails, PackageStatistics } from './types';

export interface PackageStatsModalProps {
  packageId: number;
  name: string;
  range: DayRange;
  /** Only admins may see who took a package. */
  isAdmin: boolean;
  onClose: () => void;
}

type Loaded<T> = { kind: 'loading' } | { kind: 'failed' } | { kind: 'loaded'; value: T };

/** Loads once, when the dialog opens; a read error is toasted and leaves `failed`. */
function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ kind: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then((value) => setState({ kind: 'loaded', value }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        toastReadError(error);
        setState({ kind: 'failed' });
      });
    return () => controller.abort();
    // The dialog shows one package and range for its whole life (its parent remounts it for another).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return state;
}

/** What the package's mails brought, since they went out (not limited to the dialog's range). */
function PackageMailFigures({ mails }: { mails: PackageMails }) {
  const figures: [string, string, string][] = [
    ['E-Mails gesendet', formatCount(mails.sent), 'mail-sent'],
    ['Fehlgeschlagen', formatCount(mails.failed), 'mail-failed'],
    ['Abmeldungen', formatCount(mails.unsubscribes), 'mail-unsubscribes'],
    ['Downloads über E-Mail', formatCount(mails.mailDownloads), 'mail-downloads'],
    ['Danach geladen', tookText(mails), 'mail-took'],
  ];
  const titleId = useId();
  return (
    <section className="mb-3" aria-labelledby={titleId} data-testid="package-mails">
      <h3 className="h6 mb-2" id={titleId}>
        E-Mails zu diesem Paket (seit dem Versand)
      </h3>
      <dl className="row row-cols-2 row-cols-md-3 g-2 mb-0">
        {figures.map(([label, value, testId]) => (
          <div className="col" key={testId}>
            <dt className="fw-normal text-body-secondary small">{label}</dt>
            <dd className="fw-semibold mb-0" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Loading() {
  return (
    <p className="text-body-secondary" role="status">
      <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
      Wird geladen …
    </p>
  );
}

export function PackageStatsModal({ packageId, name, range, isAdmin, onClose }: PackageStatsModalProps) {
  const stats = useLoaded((signal) => fetchPackageStatistics(packageId, range, signal));
  const [tableOpen, setTableOpen] = useState(false);

  return (
    <Modal
      title={`Statistik: ${name}`}
      onClose={onClose}
      size="lg"
      testId="package-stats"
      footer={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Schließen
        </button>
      }
    >
      <p className="text-body-secondary" data-testid="package-stats-range">
        Zeitraum: {formatRange(range.from, range.to)}
      </p>
      {stats.kind === 'loading' && <Loading />}
      {stats.kind === 'failed' && <p className="text-body-secondary">Die Statistik konnte nicht geladen werden.</p>}
      {stats.kind === 'loaded' && (
        <PackageFigures
          stats={stats.value}
          tableOpen={tableOpen}
          onTableOpenChange={setTableOpen}
          filesCsvHref={exportUrl('package', range, null, packageId)}
        />
      )}
      {isAdmin && <PackageCustomers packageId={packageId} range={range} />}
    </Modal>
  );
}

function PackageFigures({
  stats,
  tableOpen,
  onTableOpenChange,
  filesCsvHref,
}: {
  stats: PackageStatistics;
  tableOpen: boolean;
  onTableOpenChange: (open: boolean) => void;
  /** The package's files as CSV, for the dialog's range. */
  filesCsvHref: string;
}) {
  const filesTitleId = useId();
  return (
    <>
      <dl className="row row-cols-2 g-2 mb-3" data-testid="package-totals">
        <div className="col">
          <dt className="fw-normal text-body-secondary">Downloads</dt>
          <dd className="fs-4 fw-semibold mb-0" data-testid="package-downloads" data-value={stats.downloads}>
            {formatCount(stats.downloads)}
          </dd>
        </div>
        <div className="col">
          <dt className="fw-normal text-body-secondary">Händler</dt>
          <dd className="fs-4 fw-semibold mb-0" data-testid="package-customers" data-value={stats.customers}>
            {formatCount(stats.customers)}
          </dd>
        </div>
      </dl>
      {stats.mails && <PackageMailFigures mails={stats.mails} />}
      <DayChart
        days={stats.days}
        title="Downloads je Tag"
        headingLevel={3}
        tableOpen={tableOpen}
        onTableOpenChange={onTableOpenChange}
        testId="package-days"
      />
      <section className="mb-4" aria-labelledby={filesTitleId} data-testid="package-files">
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
          <h3 className="h5 mb-0" id={filesTitleId}>
            Dateien
          </h3>
          <CsvLink href={filesCsvHref} label="Dateien" testId="csv-package" />
        </div>
        {stats.files.length === 0 ? (
          <p className="text-body-secondary">Keine Dateien.</p>
        ) : (
          <TableBox label="Dateien">
            <CountTable
              nameHeader="Datei"
              wrapNames
              rows={stats.files.map((file) => ({
                key: file.id,
                name: file.name,
                downloads: file.downloads,
                attributes: { 'data-testid': 'package-file-row', 'data-file-name': file.name, 'data-downloads': file.downloads },
              }))}
            />
          </TableBox>
        )}
      </section>
    </>
  );
}

function PackageCustomers({ packageId, range }: { packageId: number; range: DayRange }) {
  const customers = useLoaded<CustomersPage>((signal) => fetchPackageCustomers(packageId, range, signal));
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} data-testid="package-customer-section">
      <h3 className="h5" id={titleId}>
        Wer hat geladen?
      </h3>
      <p className="text-body-secondary small">
        Welche Kundennummer geladen hat, wird nur begrenzte Zeit gespeichert (üblich sind 90 Tage); ältere Downloads
        erscheinen hier nicht.
      </p>
      {customers.kind === 'loading' && <Loading />}
      {customers.kind === 'failed' && <p className="text-body-secondary">Die Liste konnte nicht geladen werden.</p>}
      {customers.kind === 'loaded' &&
        (customers.value.content.length === 0 ? (
          <p className="text-body-secondary" data-testid="no-customers">
            Niemand in diesem Zeitraum.
          </p>
        ) : (
          <>
            {customers.value.count > customers.value.content.length && (
              <p className="small">
                Gezeigt werden {formatCount(customers.value.content.length)} von {formatCount(customers.value.count)}.
              </p>
            )}
            <TableBox label="Wer hat geladen?">
              <table className="table table-sm">
                <thead>
                  <tr>
                    <th scope="col">Kundennummer</th>
                    <th scope="col" className="text-end">
                      Downloads
                    </th>
                    <th scope="col">Zuletzt geladen</th>
                  </tr>
                </thead>
                <tbody>
                  {customers.value.content.map((row) => (
                    <tr
                      key={row.customerNumber}
                      data-testid="customer-row"
                      data-customer-number={row.customerNumber}
                      data-downloads={row.downloads}
                    >
                      <td>{row.customerNumber}</td>
                      <td className="text-end">{formatCount(row.downloads)}</td>
                      <td className="text-nowrap">{formatDateTime(row.lastAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          </>
        ))}
    </section>
  );
}
