import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOUR_STEPS, presentSteps, stepElement } from './steps';
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

describe('stepElement', () => {
  it('points at the match shown at the screen width: the column header, else the first card cell', () => {
    document.body.innerHTML = `
      <table class="ap-downloads-table">
        <thead><tr><th data-tour="column-provider">Anbieter</th></tr></thead>
        <tbody><tr><td class="ap-cell-provider">Glasfaser Süd</td></tr></tbody>
      </table>`;
    const step = TOUR_STEPS.find((s) => s.id === 'provider')!;
    const header = document.querySelector('th')!;
    const cell = document.querySelector('td')!;
    const shownAs = (element: Element, shown: boolean) => vi.spyOn(element, 'checkVisibility').mockReturnValue(shown);
    shownAs(header, true);
    shownAs(cell, true);
    expect(stepElement(document, step)).toBe(header);
    // A phone: the table's head is hidden, the card's cell is shown.
    shownAs(header, false);
    expect(stepElement(document, step)).toBe(cell);
    // Nothing laid out (no layout at all): the first match.
    shownAs(cell, false);
    expect(stepElement(document, step)).toBe(header);
    document.body.innerHTML = '';
  });
});

describe('the step "Weitere laden"', () => {
  const step = TOUR_STEPS.find((s) => s.id === 'load-more')!;
  const table = '<table class="ap-downloads-table"><tbody><tr id="first"></tr><tr id="last"></tr></tbody></table>';

  it('points at the line below the list, with the button or without it', () => {
    document.body.innerHTML = `${table}
      <div data-tour="load-more"><span>20/25</span><button data-testid="load-more">Weitere laden</button></div>`;
    expect(stepElement(document, step)?.getAttribute('data-tour')).toBe('load-more');
    // Every package on one page (the demo): no button, the line says so.
    document.body.innerHTML = `${table}
      <div data-tour="load-more"><span>5/5</span><p data-testid="no-more">Keine weiteren Downloads vorhanden.</p></div>`;
    expect(stepElement(document, step)?.textContent).toContain('Keine weiteren Downloads vorhanden.');
    expect(presentSteps(document).map((s) => s.id)).toContain('load-more');
    document.body.innerHTML = '';
  });
});
