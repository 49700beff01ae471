// Downloads per day: the bar chart (uPlot, loaded on first use) with a text alternative: the
// chart is an image whose name sums it up, and "Als Tabelle anzeigen" opens every day's figure
// as a table (also what the Downloads total opens).
import { useEffect, useId, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { formatCount } from '../../../lib/format';
import { CountTable } from './CountTable';
import { CsvLink } from './CsvLink';
import { formatDay } from './format';
import { TableBox } from './TableBox';
import type { DayCount } from './types';

/** The chart's accessible name: total, range and busiest day. */
export function chartSummary(days: readonly DayCount[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return 'Downloads je Tag: keine Tage im Zeitraum.';
  const total = days.reduce((sum, day) => sum + day.downloads, 0);
  const range = `vom ${formatDay(first.date)} bis ${formatDay(last.date)}`;
  if (total === 0) return `Downloads je Tag ${range}: keine Downloads.`;
  const busiest = days.reduce((best, day) => (day.downloads > best.downloads ? day : best), first);
  return (
    `Downloads je Tag ${range}: insgesamt ${formatCount(total)}, ` +
    `die meisten am ${formatDay(busiest.date)} mit ${formatCount(busiest.downloads)}.`
  );
}

export interface DayChartProps {
  days: readonly DayCount[];
  /** The section's heading, e.g. "Downloads je Tag". */
  title: string;
  /** Heading level inside the page or the dialog. */
  headingLevel: 2 | 3;
  tableOpen: boolean;
  onTableOpenChange: (open: boolean) => void;
  /** The table's box, for the Downloads total to move the focus there. */
  tableRef?: RefObject<HTMLDivElement | null>;
  testId: string;
  /** The days as CSV (`csv-days` in the header); none when not given. */
  csvHref?: string;
}

export function DayChart({
  days,
  title,
  headingLevel,
  tableOpen,
  onTableOpenChange,
  tableRef,
  testId,
  csvHref,
}: DayChartProps) {
  const ids = useId();
  const chartRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  useEffect(() => {
    const container = chartRef.current;
    if (!container || days.length === 0) return;
    let destroy: (() => void) | null = null;
    let cancelled = false;
    import('./uplotChart')
      .then(({ drawDayChart }) => {
        if (!cancelled) destroy = drawDayChart(container, days).destroy;
      })
      .catch((error: unknown) => {
        console.error('[statistics] the chart could not be loaded', error);
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [days]);

  return (
    <section className="mb-4" aria-labelledby={`${ids}-title`} data-testid={testId}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <Heading className="h5 mb-0" id={`${ids}-title`}>
          {title}
        </Heading>
        <div className="d-flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            aria-expanded={tableOpen}
            aria-controls={`${ids}-table`}
            onClick={() => onTableOpenChange(!tableOpen)}
            data-testid="day-table-toggle"
          >
            <i className={`bi ${tableOpen ? 'bi-bar-chart' : 'bi-table'} me-1`} aria-hidden="true" />
            {tableOpen ? 'Tabelle ausblenden' : 'Als Tabelle anzeigen'}
          </button>
          {csvHref !== undefined && <CsvLink href={csvHref} label={title} testId="csv-days" />}
        </div>
      </div>
      <div ref={chartRef} className="ap-stats-chart" role="img" aria-label={chartSummary(days)} data-testid="day-chart" />
      {failed && <p className="text-body-secondary small">Das Diagramm konnte nicht geladen werden; die Zahlen stehen in der Tabelle.</p>}
      <div id={`${ids}-table`} ref={tableRef} tabIndex={-1} hidden={!tableOpen}>
        {tableOpen && <DayTable days={days} caption={title} />}
      </div>
    </section>
  );
}

function DayTable({ days, caption }: { days: readonly DayCount[]; caption: string }) {
  return (
    <TableBox label={`${caption} als Tabelle`}>
      <CountTable
        nameHeader="Tag"
        caption={caption}
        className="table table-sm mb-0"
        testId="day-table"
        rows={days.map((day) => ({
          key: day.date,
          name: formatDay(day.date),
          downloads: day.downloads,
          attributes: { 'data-testid': 'day-row', 'data-date': day.date },
        }))}
      />
    </TableBox>
  );
}
