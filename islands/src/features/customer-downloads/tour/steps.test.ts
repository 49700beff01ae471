import { afterEach, describe, expect, it } from 'vitest';
import { TOUR_STEPS, presentSteps } from './steps';
import { TOUR_FLAG_KEY, markTourCompleted, tourCompleted } from './tourFlag';

afterEach(() => window.localStorage.clear());

describe('guided tour', () => {
  it('has 20 steps with German titles and texts', () => {
    expect(TOUR_STEPS).toHaveLength(20);
    expect(new Set(TOUR_STEPS.map((s) => s.id)).size).toBe(20);
    for (const step of TOUR_STEPS) expect(step.content.length).toBeGreaterThan(10);
  });

  it('leaves out steps whose element is not on the page', () => {
    document.body.innerHTML = '<div data-tour="search"></div><div data-tour="help"></div>';
    expect(presentSteps(document).map((s) => s.id)).toEqual(['search', 'help']);
  });

  it('remembers completion', () => {
    expect(tourCompleted()).toBe(false);
    markTourCompleted();
    expect(tourCompleted()).toBe(true);
    expect(window.localStorage.getItem(TOUR_FLAG_KEY)).not.toBeNull();
  });
});
