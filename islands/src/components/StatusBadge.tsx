// The status badge of a package or file (spec §4), as the server computed it.
import type { Badge } from '../lib/downloads';

const CLASS: Record<Badge, string> = {
  NEU: 'ap-badge-new',
  BEVORSTEHENDE: 'ap-badge-upcoming',
  'LÄUFT IN KÜRZE AB': 'ap-badge-ending-soon',
  BEENDET: 'ap-badge-finished',
  ARCHIVIERT: 'ap-badge-archived',
};

// The API leaves the badge out or sends null when there is none.
export default function StatusBadge({ badge }: { badge: Badge | null | undefined }) {
  if (!badge) return null;
  return <span className={`ap-badge ${CLASS[badge]}`}>{badge}</span>;
}

/** The class of an end-date cell (spec §4): red expired, orange ending soon, blue upcoming. */
export function endDateClass(badge: Badge | null | undefined): string {
  switch (badge) {
    case 'BEENDET':
      return 'ap-date-expired';
    case 'LÄUFT IN KÜRZE AB':
      return 'ap-date-ending-soon';
    case 'BEVORSTEHENDE':
      return 'ap-date-upcoming';
    default:
      return '';
  }
}
