// The 20 steps of the guided tour (spec §2, §9) over the real elements of the page. `filters`
// marks the steps inside the filter panel, which the tour opens for them. A step's target may
// name several elements (the table's column header on a desktop, the same cell of the first
// card on a phone); the tour points at the first one shown at the screen's width.

export interface TourStep {
  id: string;
  /** CSS selector of the element the step points at: the first shown one of its matches. */
  target: string;
  title: string;
  content: string;
  filters?: boolean;
}

const tour = (name: string) => `[data-tour="${name}"]`;

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'search',
    target: tour('search'),
    title: 'Suche',
    content: 'Geben Sie hier einen Suchbegriff ein. Die Liste passt sich schon während der Eingabe an.',
  },
  {
    id: 'mode',
    target: tour('mode'),
    title: 'Suchart',
    content: 'Wählen Sie, ob in der Bezeichnung der Downloads oder in den Dateinamen gesucht wird.',
  },
  {
    id: 'filters',
    target: tour('filters'),
    title: 'Filter',
    content: 'Hier öffnen und schließen Sie die Filter. Die Zahl zeigt, wie viele Filter gerade aktiv sind.',
  },
  {
    id: 'archived',
    target: tour('filter-archived'),
    title: 'Archivierte Downloads',
    content: 'Schalten Sie diesen Filter ein, um archivierte Downloads vergangener Aktionen zu sehen.',
    filters: true,
  },
  {
    id: 'tags',
    target: tour('filter-tags'),
    title: 'Tags',
    content: 'Zeigt nur Downloads mit Dateien der gewählten Tags, zum Beispiel Flyer oder Plakate. Ohne Auswahl wird nicht nach Tags gefiltert.',
    filters: true,
  },
  {
    id: 'providers',
    target: tour('filter-providers'),
    title: 'Anbieter',
    content: 'Beschränkt die Liste auf die gewählten Anbieter. Ohne Auswahl sehen Sie die Downloads aller Anbieter.',
    filters: true,
  },
  {
    id: 'reset',
    target: tour('reset'),
    title: 'Zurücksetzen',
    content: 'Setzt Suche und Filter zurück: nicht archiviert, alle Anbieter, keine Tags, Suche nach Bezeichnung.',
  },
  {
    id: 'select-all',
    // The table's header box on a desktop, the bar above the cards on a phone.
    target: tour('select-all'),
    title: 'Alles auswählen',
    content: 'Wählt alle Dateien der geladenen Downloads für den Download-Manager aus oder hebt die Auswahl wieder auf.',
  },
  {
    id: 'provider',
    target: `${tour('column-provider')}, .ap-downloads-table tbody .ap-cell-provider`,
    title: 'Anbieter',
    content: 'Der Anbieter des Downloads. Ein Klick auf eine Spaltenüberschrift sortiert die Liste, ein zweiter kehrt die Reihenfolge um.',
  },
  {
    id: 'name',
    target: `${tour('column-name')}, .ap-downloads-table tbody .ap-cell-name`,
    title: 'Bezeichnung',
    content: 'Der Name des Download-Pakets, daneben sein Status.',
  },
  {
    id: 'badge',
    target: '.ap-downloads-table tbody .ap-badge',
    title: 'Status',
    content: 'NEU, BEVORSTEHENDE, LÄUFT IN KÜRZE AB, BEENDET oder ARCHIVIERT: So sehen Sie auf einen Blick, ob ein Paket aktuell ist.',
  },
  {
    id: 'validity',
    target: `${tour('column-startAt')}, .ap-downloads-table tbody .ap-cell-start`,
    title: 'Gültig ab und bis',
    content: 'Der Zeitraum der Aktion. Das Ende ist rot, wenn es vorbei ist, orange, wenn es bald abläuft, und blau, wenn die Aktion noch bevorsteht.',
  },
  {
    id: 'modified',
    target: `${tour('column-updatedAt')}, .ap-downloads-table tbody .ap-cell-updated`,
    title: 'Geändert',
    content: 'Wann das Paket zuletzt geändert wurde.',
  },
  {
    id: 'file-checkbox',
    target: tour('file-checkbox'),
    title: 'Dateien auswählen',
    content: 'Setzen Sie einen Haken bei jeder Datei, die Sie gesammelt herunterladen möchten.',
  },
  {
    id: 'file-link',
    target: tour('file-link'),
    title: 'Einzelne Datei',
    content: 'Ein Klick auf den Dateinamen lädt die Datei sofort herunter. Daneben stehen ihre Tags und ihre Größe.',
  },
  {
    id: 'package-zip',
    target: tour('package-zip'),
    title: 'Ganzes Paket',
    content: 'Lädt alle Dateien eines Pakets als ein ZIP-Archiv herunter.',
  },
  {
    id: 'manager',
    target: tour('manager'),
    title: 'Download-Manager',
    content: 'Lädt alle ausgewählten Dateien und packt sie in ein ZIP-Archiv, mit einem Ordner je Paket. Die Zahl zeigt, wie viele Dateien ausgewählt sind.',
  },
  {
    id: 'load-more',
    // The line at the list's end, there whenever the list is: "geladen/gesamt", then the
    // "Weitere laden" button while more packages wait, else "Keine weiteren Downloads
    // vorhanden." (the demo: every package fits on one page). Not the button itself, which
    // is missing then.
    target: tour('load-more'),
    title: 'Weitere laden',
    content:
      'Hier sehen Sie, wie viele Downloads geladen sind und wie viele es insgesamt gibt. Gibt es mehr, holt „Weitere laden“ die nächsten 20; sonst steht hier „Keine weiteren Downloads vorhanden.“',
  },
  {
    id: 'help',
    target: tour('help'),
    title: 'Hilfe',
    content: 'Über diesen Knopf starten Sie den Rundgang jederzeit erneut.',
  },
  {
    id: 'account',
    target: '[data-testid="account-menu-toggle"]',
    title: 'Mein Konto',
    content: 'Ihre Kundendaten und die Abmeldung finden Sie hier. Viel Erfolg mit Ihren Aktionen!',
  },
];

/** Whether the element is shown at this width (CSS hides some; a closed panel hides its content). */
function shown(element: Element): boolean {
  if (typeof element.checkVisibility === 'function') return element.checkVisibility();
  return element.getClientRects().length > 0;
}

/**
 * The element a step points at: the first shown match of its target, else its first match (a
 * closed filter panel's content shows once the tour opens the panel; pages without layout,
 * as in unit tests, show nothing).
 */
export function stepElement(root: ParentNode, step: TourStep): HTMLElement | null {
  const matches = Array.from(root.querySelectorAll<HTMLElement>(step.target));
  return matches.find(shown) ?? matches[0] ?? null;
}

/** The steps whose element is on the page now (no rows: no file steps). */
export function presentSteps(root: ParentNode, steps: readonly TourStep[] = TOUR_STEPS): TourStep[] {
  return steps.filter((step) => stepElement(root, step) !== null);
}
