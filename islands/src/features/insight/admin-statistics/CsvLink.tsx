// The small "CSV" link in a section's header: downloads that view of the figures as CSV. Its
// name says which view ("CSV: Downloads je Tag"), starting with the text it shows.
export interface CsvLinkProps {
  href: string;
  /** What the CSV holds, usually the section's heading. */
  label: string;
  testId: string;
}

export function CsvLink({ href, label, testId }: CsvLinkProps) {
  return (
    <a
      className="btn btn-outline-secondary btn-sm"
      href={href}
      download
      aria-label={`CSV: ${label}`}
      title={`${label} als CSV herunterladen`}
      data-testid={testId}
    >
      <i className="bi bi-download me-1" aria-hidden="true" />
      CSV
    </a>
  );
}
