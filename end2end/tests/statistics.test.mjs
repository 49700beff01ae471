// The download statistics (issue 24) in a real browser against the local-mode portal of
// scripts/e2e.sh: a file the demo dealer downloads reaches the statistics screen, the package's
// own figures (with the dealer's customer number under "Wer hat geladen?") and the Downloads
// column of the admin list; a range the server refuses keeps the figures; the CSV links follow
// the range (each view has its own); and axe finds no WCAG 2.2 A/AA violation at 320 and 1366 px.
//
// seed-demo writes a month of download events, so the figures are never empty: the test
// compares with what the API said before the dealer's download, not with zero.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { axeViolations } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';
import { expectToast } from '../lib/toasts.mjs';
import { eventually as waitUntil } from '../lib/wait.mjs';

const PACKAGE = 'Mobilfunk Mitte Tarifwechsel-Aktion';
const FILE = 'Tarifblatt Mobilfunk.pdf';
const PROVIDER = 'Mobilfunk Mitte';
const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';

const eventually = (check, options = {}) => waitUntil(check, { timeout: 15_000, interval: 500, ...options });

async function json(response) {
  assert.ok(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`);
  return response.json();
}

// ---------------------------------------------------------------------------------------------
// German days: the default range is the 30 days up to today in Berlin.

function berlinToday() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}

function addDays(day, days) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function defaultRange() {
  const to = berlinToday();
  return { from: addDays(to, -29), to };
}

// ---------------------------------------------------------------------------------------------
// The screens

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

/** Waits until the statistics island shows the figures of the latest choice. */
async function statisticsReady(page) {
  await page.locator('[data-island="AdminStatistics"][data-island-state="mounted"]').waitFor();
  await page.locator('[data-testid="statistics-figures"][aria-busy="false"]').waitFor();
  await page.getByTestId('totals').waitFor();
}

async function openStatistics(page, search = '') {
  const response = await page.goto(`/admin/statistics${search}`);
  assert.equal(response.status(), 200);
  await islandsMounted(page);
  await statisticsReady(page);
}

const numberOf = async (locator, attribute = 'data-value') => Number(await locator.getAttribute(attribute));

const topPackageRow = (page, id) => page.locator(`[data-testid="top-package-row"][data-package-id="${id}"]`);

/** The package dialog's figures, once loaded (and, for an admin, who took it). */
async function packageDialog(page) {
  const dialog = page.getByTestId('package-stats');
  await dialog.getByTestId('package-totals').waitFor();
  return dialog;
}

const fileRow = (dialog) => dialog.locator(`[data-testid="package-file-row"][data-file-name="${FILE}"]`);
const customerRow = (dialog, number) =>
  dialog.locator(`[data-testid="customer-row"][data-customer-number="${number}"]`);

// ---------------------------------------------------------------------------------------------
// What the API says, for the figures before the dealer's download

async function baseline(page, packageId, providerId, customerNumber) {
  const { from, to } = defaultRange();
  const range = `from=${from}&to=${to}`;
  const summary = await json(await page.request.get(`/api/statistics/summary?${range}&providerId=${providerId}`));
  const stats = await json(await page.request.get(`/api/statistics/packages/${packageId}?${range}`));
  const customers = await json(await page.request.get(`/api/statistics/packages/${packageId}/customers?${range}`));
  const [allTime] = await json(await page.request.get(`/api/statistics/downloads?ids=${packageId}`));
  return {
    total: summary.downloads,
    file: stats.files.find((f) => f.name === FILE)?.downloads ?? 0,
    customer: customers.content.find((c) => c.customerNumber === customerNumber)?.downloads ?? 0,
    allTime: allTime?.downloads ?? 0,
  };
}

/**
 * Signs the dealer in on a page of its own, lets `beforeDownload(customerNumber)` note the
 * figures, then downloads the file as the browser does. Answers what `beforeDownload` did.
 */
async function dealerDownloadsTheFile(beforeDownload) {
  return withPage(async ({ page, context, consoleErrors }) => {
    await context.addInitScript((key) => window.localStorage.setItem(key, 'e2e'), TOUR_FLAG);
    await logIn(page, 'haendler');
    await page.waitForURL('**/user/downloads');
    const { customerNumber } = await json(await page.request.get('/api/login/user'));
    assert.ok(customerNumber, 'the demo dealer has a customer number');
    const noted = await beforeDownload(customerNumber);
    await page.goto(`/user/downloads?search=${encodeURIComponent(PACKAGE)}`);
    await page.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
    const href = await page.getByRole('link', { name: `${FILE} herunterladen` }).first().getAttribute('href');
    assert.match(href, /^\/files\//);
    const response = await page.request.get(href);
    assert.equal(response.status(), 200, href);
    assert.ok((await response.body()).length > 0);
    assert.deepEqual(consoleErrors, []);
    return { customerNumber, ...noted };
  });
}

test('a file the dealer downloads shows in the statistics, the package view and the downloads list', () =>
  withPage(async ({ page, consoleErrors }) => {
    await logIn(page, 'admin');
    await page.waitForURL('**/user/downloads');
    const all = await json(await page.request.get(`/api/downloads/?limit=20&offset=0&search=${encodeURIComponent(PACKAGE)}`));
    const pkg = all.content.find((d) => d.name === PACKAGE);
    assert.ok(pkg, `demo package ${PACKAGE}`);
    const providerId = pkg.ProviderId;

    const { customerNumber, before } = await dealerDownloadsTheFile(async (number) => ({
      before: await baseline(page, pkg.id, providerId, number),
    }));

    // The statistics screen: the default range, then the dealer's provider.
    const { from, to } = defaultRange();
    await openStatistics(page);
    assert.equal(await page.getByTestId('range-from').inputValue(), from);
    assert.equal(await page.getByTestId('range-to').inputValue(), to);
    assert.equal(await page.getByTestId('csv-export').getAttribute('href'), `/api/statistics/packages.csv?from=${from}&to=${to}`);
    await page.getByTestId('provider-select').selectOption({ label: PROVIDER });
    // The figures shown are kept in the address bar (replaceState, no navigation).
    await page.waitForFunction((id) => window.location.search === `?providerId=${id}`, providerId);
    await statisticsReady(page);
    await page.getByTestId('shown-view').filter({ hasText: `, ${PROVIDER}.` }).waitFor();

    // The events are written within about a second: reload (the address bar keeps the
    // provider) until the dealer's download is counted.
    await eventually(async () => {
      await page.reload();
      await statisticsReady(page);
      assert.ok((await numberOf(page.getByTestId('total-downloads'))) > before.total, 'the Downloads total counts it');
      assert.equal(await topPackageRow(page, pkg.id).count(), 1, 'the package is among the top packages');
    });
    assert.match(await page.getByTestId('total-downloads').textContent(), /^\d{1,3}(\.\d{3})*$/);
    assert.match(await page.getByTestId('total-zip-share').textContent(), /^\d{1,3}(,\d)?\u00a0%$/);
    // uPlot arrived as a chunk of its own and drew the chart.
    await page.locator('[data-testid="summary-days"] [data-testid="day-chart"] canvas').first().waitFor();
    assert.ok(
      await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/assets\/uplotChart-[\w-]+\.js$/.test(e.name))),
      'the chart chunk',
    );
    // The Downloads total opens the table of days, every day of the range.
    await page.getByTestId('total-downloads-button').click();
    await page.locator('[data-testid="summary-days"] [data-testid="day-table"]').waitFor();
    assert.equal(await page.locator('[data-testid="summary-days"] [data-testid="day-row"]').count(), 30);

    // The package's own figures: the file counted, the dealer among who took it.
    await topPackageRow(page, pkg.id).getByTestId('open-package').click();
    let dialog = await packageDialog(page);
    assert.equal((await dialog.locator('.modal-title').textContent()).trim(), `Statistik: ${PACKAGE}`);
    assert.ok((await numberOf(fileRow(dialog), 'data-downloads')) > before.file, 'the file counts the download');
    await customerRow(dialog, customerNumber).waitFor();
    assert.ok((await numberOf(customerRow(dialog, customerNumber), 'data-downloads')) > before.customer);
    assert.match(await customerRow(dialog, customerNumber).locator('td').nth(2).textContent(), /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The CSV of the range holds the package.
    const csv = await page.request.get(await page.getByTestId('csv-export').getAttribute('href'));
    assert.equal(csv.status(), 200);
    assert.match(csv.headers()['content-type'], /text\/csv/);
    assert.ok((await csv.text()).includes(PACKAGE), 'the CSV names the package');
    // Each view has a CSV of its own: the days of the range and provider shown, for Excel.
    const daysHref = await page.getByTestId('csv-days').getAttribute('href');
    assert.equal(daysHref, `/api/statistics/export.csv?view=days&from=${from}&to=${to}&providerId=${providerId}`);
    const daysCsv = await page.request.get(daysHref);
    assert.equal(daysCsv.status(), 200, daysHref);
    assert.match(daysCsv.headers()['content-type'], /text\/csv/);
    const daysText = await daysCsv.text();
    assert.ok(daysText.startsWith('\ufeffDatum;Downloads'), `the CSV of the days: ${JSON.stringify(daysText.slice(0, 40))}`);

    // The admin list: the Downloads column, and "Statistik" in the row's menu.
    await page.goto('/admin/downloads/');
    await islandsMounted(page);
    await page.getByTestId('downloads-search').fill(PACKAGE);
    const row = page.locator(`[data-testid="download-row"][data-download-id="${pkg.id}"]`);
    const cell = row.getByTestId('all-time-downloads');
    await eventually(async () => {
      assert.equal(await cell.getAttribute('data-loading'), null);
      assert.ok((await numberOf(cell, 'data-downloads')) > before.allTime, 'all-time downloads count it');
    }, { timeout: 5_000, interval: 200 });
    await row.getByTestId('row-actions').click();
    await row.getByTestId('row-menu').getByRole('button', { name: 'Statistik' }).click();
    dialog = await packageDialog(page);
    assert.match(await dialog.getByTestId('package-stats-range').textContent(), /^Zeitraum: \d{2}\.\d{2}\.\d{4} – \d{2}\.\d{2}\.\d{4}$/);
    assert.ok((await numberOf(fileRow(dialog), 'data-downloads')) > before.file);
    await customerRow(dialog, customerNumber).waitFor();
    await page.keyboard.press('Escape');

    assert.deepEqual(consoleErrors, []);
  }));

test('a range the server refuses keeps the figures and says why', () =>
  withPage(async ({ page, consoleErrors }) => {
    await logIn(page, 'admin');
    await page.waitForURL('**/user/downloads');
    await openStatistics(page);
    const total = await numberOf(page.getByTestId('total-downloads'));
    const { to } = defaultRange();
    const tooLong = addDays(to, -400);
    // The server's own words for it.
    const refused = await page.request.get(`/api/statistics/summary?from=${tooLong}&to=${to}`);
    assert.equal(refused.status(), 400);
    const { message } = await refused.json();

    await page.getByTestId('range-from').fill(tooLong);
    await expectToast(page, 'error', message);
    assert.equal(await page.getByTestId('range-error').textContent(), message);
    assert.equal(await page.getByTestId('range-from').getAttribute('aria-invalid'), 'true');
    assert.equal(await numberOf(page.getByTestId('total-downloads')), total, 'the figures shown stay');
    assert.equal(new URL(page.url()).search, '', 'the address bar keeps the range shown');

    const from = addDays(to, -6);
    await page.getByTestId('range-from').fill(from);
    await page.getByTestId('range-error').waitFor({ state: 'detached' });
    await statisticsReady(page);
    assert.equal(new URL(page.url()).search, `?from=${from}&to=${to}`);
    assert.equal(await page.getByTestId('csv-export').getAttribute('href'), `/api/statistics/packages.csv?from=${from}&to=${to}`);
    // The browser's console shows the refused call (400) as an error of its own.
    assert.ok(consoleErrors.every((line) => /400/.test(line)), consoleErrors.join('\n'));
  }));

for (const viewport of [
  { width: 320, height: 640 },
  { width: 1366, height: 900 },
]) {
  test(`axe finds no WCAG 2.2 A/AA violation on the statistics at ${viewport.width} px, nor sideways scrolling`, () =>
    withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        await openStatistics(page);
        await page.locator('[data-testid="summary-days"] [data-testid="day-chart"] canvas').first().waitFor();
        await page.locator('[data-testid="summary-days"] [data-testid="day-table-toggle"]').click();
        await page.getByTestId('provider-shares').getByRole('table').waitFor();
        assert.deepEqual(await axeViolations(page), [], `statistics at ${viewport.width} px`);
        assert.equal(await sideways(page), 0, `statistics at ${viewport.width} px`);

        await page.getByTestId('open-package').first().click();
        const dialog = await packageDialog(page);
        await dialog.getByTestId('package-customer-section').locator('table, [data-testid="no-customers"]').first().waitFor();
        assert.deepEqual(await axeViolations(page), [], `package statistics at ${viewport.width} px`);
        assert.equal(await sideways(page), 0, `package statistics at ${viewport.width} px`);
        assert.deepEqual(consoleErrors, []);
      },
      // axe is injected as a script of the test; the portal's CSP allows no inline script.
      { viewport, bypassCSP: true },
    ));
}

async function sideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
