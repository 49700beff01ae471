import { describe, expect, it } from 'vitest';
import type uPlot from 'uplot';
import { chartOptions } from './uplotChart';
import { days } from './fixtures';

describe('the chart of downloads per day', () => {
  const range = days('2026-06-02', '2026-07-01', (index) => index);
  const options = chartOptions(range, 600);
  const [xAxis, yAxis] = options.axes ?? [];
  const values = (axis: uPlot.Axis | undefined, splits: number[]) =>
    (axis?.values as uPlot.Axis.DynamicValues)({} as uPlot, splits, 0, 0, 0);

  it('labels the days in German (dd.mm.), from the days themselves', () => {
    expect(values(xAxis, [0, 7, 29])).toEqual(['02.06.', '09.06.', '01.07.']);
  });

  it('counts downloads in whole numbers with German separators', () => {
    expect(values(yAxis, [0, 1500, 20000])).toEqual(['0', '1.500', '20.000']);
    expect(yAxis?.incrs).not.toContain(0.5);
  });

  it('fits the width it is given', () => {
    expect(options.width).toBe(600);
  });
});
