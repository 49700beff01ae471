// The range's most downloaded packages and files, and the packages nobody downloaded. A
// package (or a file's package) opens its own figures.
import { useId } from 'react';
import type { ReactNode } from 'react';
import { CountTable } from './CountTable';
import { CsvLink } from './CsvLink';
import type { PackageRef, TopEntry, TopFile } from './types';

export function editPath(id: number): string {
  return `/admin/download/edit/${id}`;
}

interface OpenPackage {
  onOpenPackage: (id: number, name: string) => void;
}

interface Csv {
  /** The list as CSV (for the range and provider shown). */
  csvHref: string;
}

interface SectionProps {
  title: string;
  testId: string;
  /** The section's view as CSV, linked in its header. */
  csvHref: string;
  csvTestId: string;
  children: ReactNode;
}

function Section({ title, testId, csvHref, csvTestId, children }: SectionProps) {
  const id = useId();
  return (
    <section className="mb-4" aria-labelledby={id} data-testid={testId}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <h2 className="h5 mb-0" id={id}>
          {title}
        </h2>
        <CsvLink href={csvHref} label={title} testId={csvTestId} />
      </div>
      {children}
    </section>
  );
}

function Empty({ text }: { text: string }) {
  return <p className="text-body-secondary">{text}</p>;
}

export function TopPackages({
  packages,
  onOpenPackage,
  csvHref,
}: { packages: readonly TopEntry[] } & OpenPackage & Csv) {
  return (
    <Section title="Meistgeladene Downloads" testId="top-packages" csvHref={csvHref} csvTestId="csv-packages">
      {packages.length === 0 ? (
        <Empty text="Im Zeitraum wurde nichts geladen." />
      ) : (
        <div className="table-responsive">
          <CountTable
            nameHeader="Download"
            className="table table-sm align-middle"
            rows={packages.map((entry) => ({
              key: entry.id,
              name: (
                <button
                  type="button"
                  className="btn btn-link p-0 text-start"
                  onClick={() => onOpenPackage(entry.id, entry.name)}
                  data-testid="open-package"
                >
                  {entry.name}
                </button>
              ),
              downloads: entry.downloads,
              attributes: { 'data-testid': 'top-package-row', 'data-package-id': entry.id, 'data-downloads': entry.downloads },
            }))}
          />
        </div>
      )}
    </Section>
  );
}

/**
 * The files; each opens its package's figures. The package's name is known when it is among
 * the top packages, else the dialog names it by number.
 */
export function TopFiles({
  files,
  packageNames,
  onOpenPackage,
  csvHref,
}: { files: readonly TopFile[]; packageNames: ReadonlyMap<number, string> } & OpenPackage & Csv) {
  return (
    <Section title="Meistgeladene Dateien" testId="top-files" csvHref={csvHref} csvTestId="csv-files">
      {files.length === 0 ? (
        <Empty text="Im Zeitraum wurde keine Datei geladen." />
      ) : (
        <div className="table-responsive">
          <CountTable
            nameHeader="Datei"
            className="table table-sm align-middle"
            wrapNames
            rows={files.map((file) => {
              const packageName = packageNames.get(file.packageId) ?? `Download Nr. ${file.packageId}`;
              return {
                key: `${file.packageId}-${file.id}`,
                name: (
                  <button
                    type="button"
                    className="btn btn-link p-0 text-start text-break"
                    onClick={() => onOpenPackage(file.packageId, packageName)}
                    title={`Statistik von „${packageName}“ öffnen`}
                    data-testid="open-file-package"
                  >
                    {file.name}
                  </button>
                ),
                downloads: file.downloads,
                attributes: { 'data-testid': 'top-file-row', 'data-file-id': file.id },
              };
            })}
          />
        </div>
      )}
    </Section>
  );
}

export function UntouchedPackages({ packages, csvHref }: { packages: readonly PackageRef[] } & Csv) {
  return (
    <Section title="Unberührte Downloads" testId="untouched-packages" csvHref={csvHref} csvTestId="csv-untouched">
      <p className="text-body-secondary small">Gültig im Zeitraum, aber von niemandem geladen.</p>
      {packages.length === 0 ? (
        <Empty text="Keine – jeder gültige Download wurde geladen." />
      ) : (
        <ul className="ap-stats-link-list">
          {packages.map((entry) => (
            <li key={entry.id} data-testid="untouched-package" data-package-id={entry.id}>
              <a href={editPath(entry.id)}>{entry.name}</a>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
