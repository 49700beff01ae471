// The bar chart of downloads per day, drawn by uPlot (small, canvas-based). Only imported
// dynamically (DayChart.tsx), so uPlot and its style sheet are a chunk of their own, loaded when
// a chart is first shown. The x axis counts the days of the range (0, 1, …) rather than time,
// so neither uPlot's nor the browser's zone can move a bar to another day; the labels come
// from the days' own dates.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount } from '../../../lib/format';
import { formatDayShort } from './format';
import type { DayCount } from './types';

export const CHART_HEIGHT = 220;
/** Bootstrap's primary blue: 4.5:1 against white. */
const BAR_COLOUR = '#0d6efd';
const TEXT_COLOUR = '#212529';
const GRID_COLOUR = '#dee2e6';

/** Steps between labelled days: a day, two, a week, … */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364];
/** Whole-number steps of the downloads axis (a download cannot be halved). */
const COUNT_STEPS = [1, 2, 5].flatMap((base) => Array.from({ length: 10 }, (_, power) => base * 10 ** power)).sort((a, b) => a - b);

export interface DayChartHandle {
  destroy: () => void;
}

function widthOf(container: HTMLElement): number {
  // Never wider than the box it sits in (no sideways scrolling on a phone).
  return Math.max(120, Math.floor(container.clientWidth));
}

export function chartOptions(days: readonly DayCount[], width: number): uPlot.Options {
  return {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    // Values are read in the table beside the chart; no crosshair, no drag-to-zoom.
    cursor: { show: false, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(0, days.length - 1) + 0.5] },
      y: { range: (_chart, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [
      {
        stroke: TEXT_COLOUR,
        grid: { show: false },
        ticks: { stroke: GRID_COLOUR },
        incrs: DAY_STEPS,
        space: 56,
        values: (_chart, splits) => splits.map((index) => formatDayShort(days[index]?.date ?? '')),
      },
      {
        stroke: TEXT_COLOUR,
        grid: { stroke: GRID_COLOUR, width: 1 },
        ticks: { stroke: GRID_COLOUR },
        incrs: COUNT_STEPS,
        values: (_chart, splits) => splits.map((value) => formatCount(value)),
      },
    ],
    series: [
      {},
      {
        label: 'Downloads',
        fill: BAR_COLOUR,
        stroke: BAR_COLOUR,
        width: 0,
        points: { show: false },
        paths: uPlot.paths.bars?.({ size: [0.7, 48], align: 0 }),
      },
    ],
  };
}

/** Draws the chart into `container` and follows its width until destroyed. */
export function drawDayChart(container: HTMLElement, days: readonly DayCount[]): DayChartHandle {
  const data: uPlot.AlignedData = [days.map((_, index) => index), days.map((day) => day.downloads)];
  const chart = new uPlot(chartOptions(days, widthOf(container)), data, container);
  const observer = new ResizeObserver(() => chart.setSize({ width: widthOf(container), height: CHART_HEIGHT }));
  observer.observe(container);
  return {
    destroy() {
      observer.disconnect();
      chart.destroy();
    },
  };
}
