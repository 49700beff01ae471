// axe-core's WCAG 2.0–2.2 A and AA rules on the customer page with each of its dialogs open,
// shared by the browser tests (tests/phones.test.mjs) and the benchmark (bench/phones.mjs).
// The page's context must bypass the CSP: axe is injected as a script of the test.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The violations on the page as it is now: `rule: element | element …` each. */
export async function axeViolations(page) {
  // Colours mid-transition (a button's hover, a dimmed list) are not what a reader sees.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))));
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await readFile(AXE, 'utf8') });
  return page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
  }, TAGS);
}

/**
 * The violations of the customer page (the island mounted), then with the filter panel, the
 * download manager (one file chosen), the preview dialog and the tour open in turn.
 */
export async function violationsWithEachDialog(page) {
  const found = {};
  found.page = await axeViolations(page);
  await page.getByTestId('filters-toggle').click();
  await page.getByTestId('filter-panel').waitFor();
  found.filters = await axeViolations(page);
  await page.keyboard.press('Escape');
  await page.getByTestId('filter-panel').waitFor({ state: 'hidden' });
  await page.locator('[data-tour="file-checkbox"]').first().check();
  await page.getByTestId('manager-open').click();
  await page.getByTestId('download-manager').waitFor();
  found.manager = await axeViolations(page);
  await page.keyboard.press('Escape');
  await page.locator('a.ap-thumb').first().click();
  await page.getByTestId('preview-dialog').waitFor();
  found.preview = await axeViolations(page);
  await page.keyboard.press('Escape');
  await page.getByTestId('tour-start').click();
  await page.locator('[data-joyride-step="0"]').waitFor();
  found.tour = await axeViolations(page);
  return found;
}
