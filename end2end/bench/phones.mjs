// Quality of the customer page on phones and desktops (issue 21), for scripts/bench.sh phones:
// sideways scrolling at widths from 320 px, the tour's steps at each width, and axe-core's
// WCAG 2.0–2.2 A/AA violations at 360 px and 1,366 px with the tour, the filter panel, the
// download manager and the preview dialog each open. Prints one JSON object.
//
//   AP_BASE_URL=… AP_BENCH_LOGIN=haendler AP_BENCH_PASSWORD=… node bench/phones.mjs
import { chromium } from 'playwright-core';
import { violationsWithEachDialog } from '../lib/axe.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../lib/chromium.mjs';

const base = process.env.AP_BASE_URL;
const login = process.env.AP_BENCH_LOGIN ?? 'haendler';
const password = process.env.AP_BENCH_PASSWORD;
const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

async function page(viewport, { tour = false } = {}) {
  const context = await browser.newContext({ viewport, baseURL: base, bypassCSP: true, locale: 'de-DE' });
  if (!tour) await context.addInitScript((key) => window.localStorage.setItem(key, 'bench'), TOUR_FLAG);
  const response = await context.request.post('/api/auth/login', { form: { login, password }, maxRedirects: 0 });
  if (response.status() !== 303) throw new Error(`login: ${response.status()}`);
  const p = await context.newPage();
  await p.goto('/user/downloads');
  await p.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
  return { context, page: p };
}

const result = { sideways: {}, tourSteps: {}, axe: {} };

for (const width of [320, 360, 390, 768, 1024, 1366]) {
  const { context, page: p } = await page({ width, height: 800 });
  result.sideways[width] = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await context.close();
}

for (const width of [320, 360, 800, 1366]) {
  const { context, page: p } = await page({ width, height: 800 });
  await p.getByTestId('tour-start').click();
  let steps = 0;
  for (let step = 0; step < 20; step += 1) {
    const shown = await p
      .locator(`[data-joyride-step="${step}"]`)
      .waitFor({ timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    if (!shown) break;
    steps += 1;
    if (step < 19) await p.getByTestId('button-primary').click();
  }
  result.tourSteps[width] = steps;
  await context.close();
}

for (const width of [360, 1366]) {
  const { context, page: p } = await page({ width, height: 800 });
  const found = await violationsWithEachDialog(p);
  result.axe[width] = Object.fromEntries(Object.entries(found).map(([state, list]) => [state, list.map((v) => v.split(':')[0])]));
  await context.close();
}

await browser.close();
console.log(JSON.stringify(result));
