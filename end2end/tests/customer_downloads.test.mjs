// The customer page as a dealer uses it (spec §2 "Customer downloads page"): search, filters,
// sorting, more rows, choosing files, the download manager's ZIP from the browser and from the
// server, the guided tour, and what a dealer on no list sees (nothing of the others).
//
// The demo dealer `haendler` sees 5 demo packages. Before the tests, the admin adds 16 empty
// packages and one with a file over 1 MiB to a list the dealer is on (so there is a second
// page, packages without files, and a selection above the e2e portal's browser-ZIP limit of
// 1 MiB; see scripts/e2e.sh).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { withPage } from '../lib/browser.mjs';
import { nextStep, settledStep } from '../lib/tour.mjs';
import { readZip } from '../lib/zip.mjs';

const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';
const EXTRA_PREFIX = 'E2E Mehr';
const EXTRA_COUNT = 16;
const BIG_PACKAGE = 'E2E Großes Paket';
const BIG_FILE = 'Großes Handbuch.txt';
/** Over the 1 MiB the e2e portal zips in the browser. */
const BIG_SIZE = 1536 * 1024;
/** 5 demo packages plus the ones added here. */
const DEALER_PACKAGES = 5 + EXTRA_COUNT + 1;

async function json(response) {
  assert.ok(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`);
  return response.json();
}

before(() =>
  withPage(async ({ page }) => {
    await logIn(page, 'admin');
    await page.waitForURL((url) => !url.pathname.startsWith('/api/auth/login'));
    const existing = await json(await page.request.get(`/api/downloads/?limit=1&offset=0&search=${EXTRA_PREFIX}`));
    if (existing.count > 0) return;
    const providers = await json(await page.request.get('/api/providers/?limit=50&offset=0'));
    const provider = providers.content.find((p) => p.name === 'Glasfaser Süd');
    const lists = await json(
      await page.request.get(`/api/providers/${provider.id}/lists/?limit=50&offset=0&activeStatus=true&inactiveStatus=true`),
    );
    const list = lists.content.find((l) => l.name === 'Glasfaser Privatkunden');
    const today = new Date();
    const day = (offset) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const create = async (name, uploads, startOffset) =>
      json(
        await page.request.post('/api/download/', {
          data: {
            name,
            startAt: day(startOffset),
            endAt: day(60),
            ProviderId: provider.id,
            listsIds: [list.id],
            uploadsToInsert: uploads,
          },
        }),
      );
    for (let i = 1; i <= EXTRA_COUNT; i += 1) {
      await create(`${EXTRA_PREFIX} ${String(i).padStart(2, '0')}`, [], -20 - i);
    }
    const line = 'Aktionsportal Handbuch: Werbematerial richtig einsetzen.\n';
    const text = Buffer.from(line.repeat(Math.ceil(BIG_SIZE / line.length))).subarray(0, BIG_SIZE);
    const upload = await json(
      await page.request.post('/api/upload/', {
        multipart: { 'files[0]': { name: BIG_FILE, mimeType: 'text/plain', buffer: text } },
      }),
    );
    await create(BIG_PACKAGE, [upload.id], -60);
  }),
);

/** Signs in as a dealer with the tour already done (unless `tour`), on the customer page. */
async function asDealer({ page, context }, { login = 'haendler', tour = false } = {}) {
  if (!tour) await context.addInitScript((key) => window.localStorage.setItem(key, 'e2e'), TOUR_FLAG);
  await logIn(page, login);
  await page.waitForURL('**/user/downloads');
  await islandReady(page);
}

async function islandReady(page) {
  await page.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
}

const rows = (page) => page.getByTestId('download-row');
const packageNames = (page) => page.locator('[data-testid="download-row"] .ap-package-name').allTextContents();
const loadedTotal = (page) => page.getByTestId('loaded-total').textContent();

/** Waits until the table shows exactly `names` (in any order). */
async function expectPackages(page, names) {
  await page.waitForFunction(
    (wanted) => {
      const shown = [...document.querySelectorAll('[data-testid="download-row"] .ap-package-name')].map((e) => e.textContent);
      return shown.length === wanted.length && wanted.every((n) => shown.includes(n));
    },
    names,
    { timeout: 5000 },
  ).catch(async () => assert.deepEqual((await packageNames(page)).sort(), [...names].sort()));
}

/** The bytes of a file URL as the dealer's browser gets them. */
async function fileBytes(page, path) {
  const response = await page.request.get(path);
  assert.equal(response.status(), 200, path);
  return response.body();
}

test('a dealer sees the demo packages of its lists and downloads a file and a package ZIP', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    assert.equal(await rows(page).count(), 20, 'the first page holds 20 rows');
    const table = await page.locator('table.ap-downloads-table').textContent();
    assert.match(table, /Mobilfunk Mitte Tarifwechsel-Aktion/);
    assert.doesNotMatch(table, /Energie Plus Ökostrom/, 'a package of lists the dealer is not on');
    assert.equal(await loadedTotal(page), `20/${DEALER_PACKAGES}`);
    await page.getByTestId('load-more').click();
    await page.getByTestId('no-more').waitFor();
    assert.match(await page.locator('table.ap-downloads-table').textContent(), /Glasfaser-Sommeraktion Privatkunden/);

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Flyer Glasfaser Sommeraktion.pdf herunterladen' }).click(),
    ]);
    assert.equal(file.suggestedFilename(), 'Flyer Glasfaser Sommeraktion.pdf');
    const pdf = await readFile(await file.path());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');

    const row = rows(page).filter({ hasText: 'Glasfaser-Sommeraktion Privatkunden' });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Alle Dateien als ZIP' }).click(),
    ]);
    assert.match(zip.suggestedFilename(), /^\d{4}-\d{2}-\d{2}_E2E Aktionsportal\.zip$/);
    const entries = readZip(await readFile(await zip.path())).map((e) => e.name);
    assert.ok(entries.includes('Glasfaser-Sommeraktion Privatkunden/Flyer Glasfaser Sommeraktion.pdf'), entries.join());
    assert.deepEqual(consoleErrors, []);
  }));

test('the server page is readable without JavaScript and the island takes it over without a shift', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    // Layout shifts of the whole load, island included.
    await page.reload();
    await islandReady(page);
    const shift = await page.evaluate(
      () =>
        new Promise((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 300);
        }),
    );
    assert.ok(shift < 0.01, `layout shift ${shift}`);
    assert.deepEqual(consoleErrors, []);
  }).then(() =>
    withPage(
      async (ctx) => {
        const { page } = ctx;
        await logIn(page, 'haendler');
        await page.waitForURL('**/user/downloads');
        await page.goto('/user/downloads?search=W%C3%A4rmepumpe&sortBy=name&sort=ASC');
        assert.deepEqual(await packageNames(page), ['Stadtwerke Nord Wärmepumpen-Kampagne']);
        assert.equal(await page.getByLabel('Suchbegriff').inputValue(), 'Wärmepumpe');
        assert.equal(await page.locator('th[aria-sort="ascending"]').textContent(), 'Bezeichnung ');
        // The filter form works as a plain GET form.
        await page.getByLabel('Suchbegriff').fill('');
        await page.getByTestId('filters-toggle').click();
        await page.getByTestId('filter-panel').getByLabel('Mobilfunk Mitte', { exact: true }).check();
        await page.getByRole('button', { name: 'Filter anwenden' }).click();
        await page.waitForURL(/providerIds=/);
        assert.deepEqual(await packageNames(page), ['Mobilfunk Mitte Tarifwechsel-Aktion']);
        await page.getByRole('link', { name: /Zurücksetzen/ }).click();
        await page.waitForURL(/\/user\/downloads\?sortBy=name&sort=ASC$/);
        assert.equal(await loadedTotal(page), `20/${DEALER_PACKAGES}`);
        await page.getByRole('link', { name: 'Weitere laden' }).click();
        assert.equal(await loadedTotal(page), `${DEALER_PACKAGES}/${DEALER_PACKAGES}`);
      },
      { javaScriptEnabled: false },
    ),
  ));

test('search by name and by file name, kept in the address bar for a reload', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    await page.getByLabel('Suchbegriff').fill('Wärmepumpe');
    await expectPackages(page, ['Stadtwerke Nord Wärmepumpen-Kampagne']);
    assert.match(page.url(), /search=W%C3%A4rmepumpe/);

    await page.getByLabel('Suchen nach').selectOption('byFilename');
    await page.getByLabel('Suchbegriff').fill('Tarifblatt');
    await expectPackages(page, ['Mobilfunk Mitte Tarifwechsel-Aktion']);
    await page.reload();
    await islandReady(page);
    assert.deepEqual(await packageNames(page), ['Mobilfunk Mitte Tarifwechsel-Aktion']);
    assert.equal(await page.getByLabel('Suchen nach').inputValue(), 'byFilename');

    await page.getByLabel('Suchen nach').selectOption('byName');
    await page.getByTestId('no-matches').waitFor();
    assert.match(await page.getByTestId('no-matches').textContent(), /Keine Downloads gefunden/);
    assert.deepEqual(consoleErrors, []);
  }));

test('each filter narrows the list, counts itself, and the reset brings everything back', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    const panel = page.getByTestId('filter-panel');
    await page.getByTestId('filters-toggle').click();
    await panel.getByLabel('Mobilfunk Mitte', { exact: true }).check();
    await expectPackages(page, ['Mobilfunk Mitte Tarifwechsel-Aktion']);
    assert.equal(await page.getByTestId('filter-count').textContent(), '1 aktiv');

    await panel.getByLabel('Plakat', { exact: true }).check();
    await panel.getByLabel('Mobilfunk Mitte', { exact: true }).uncheck();
    await expectPackages(page, [
      'Mobilfunk Mitte Tarifwechsel-Aktion',
      'Stadtwerke Nord Strom-Wechselbonus',
      'Stadtwerke Nord Wärmepumpen-Kampagne',
    ]);
    assert.match(page.url(), /tagsIds=%5B\d+%5D/);

    await panel.getByLabel('Archivierte Downloads anzeigen').check();
    await page.waitForFunction(() => /2/.test(document.querySelector('[data-testid="filter-count"]')?.textContent ?? ''));
    // The dealer's lists have no archived package.
    await page.getByTestId('no-matches').waitFor();

    await page.getByTestId('filters-reset').click();
    await page.waitForFunction((total) => document.querySelector('[data-testid="loaded-total"]')?.textContent === total, `20/${DEALER_PACKAGES}`);
    assert.equal(await page.getByTestId('filter-count').count(), 0);
    assert.equal(new URL(page.url()).search, '');
    assert.equal(await panel.getByLabel('Plakat', { exact: true }).isChecked(), false);
    assert.deepEqual(consoleErrors, []);
  }));

test('sorting by each column toggles ascending and descending', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const header = (label) => page.locator('th', { has: page.locator('a.ap-sort', { hasText: label }) });
    for (const label of ['Anbieter', 'Bezeichnung', 'Gültig ab', 'Gültig bis', 'Geändert']) {
      await header(label).locator('a').click();
      await page.waitForFunction((l) => document.querySelector('th[aria-sort="ascending"]')?.textContent?.trim() === l, label);
      await header(label).locator('a').click();
      await page.waitForFunction((l) => document.querySelector('th[aria-sort="descending"]')?.textContent?.trim() === l, label);
    }
    await header('Bezeichnung').locator('a').click();
    await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent?.trim() === 'Bezeichnung');
    await page.waitForFunction(() => !document.querySelector('.ap-downloads-table.ap-busy'));
    const names = (await packageNames(page)).map(asciiLower);
    assert.deepEqual(names, [...names].sort(), 'names ascending');
    assert.match(page.url(), /sortBy=name&sort=ASC/);
    assert.deepEqual(consoleErrors, []);
  }));

test('load more adds the next rows and then says that no more exist', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    assert.equal(await rows(page).count(), 20);
    await page.getByTestId('load-more').click();
    await page.getByTestId('no-more').waitFor();
    assert.equal(await rows(page).count(), DEALER_PACKAGES);
    assert.equal(await loadedTotal(page), `${DEALER_PACKAGES}/${DEALER_PACKAGES}`);
    assert.equal(await page.getByTestId('no-more').textContent(), 'Keine weiteren Downloads vorhanden.');
    // Packages without files show a warning instead.
    const empty = rows(page).filter({ hasText: `${EXTRA_PREFIX} 01` });
    assert.match(await empty.getByTestId('no-files').textContent(), /Keine Dateien/);
    assert.deepEqual(consoleErrors, []);
  }));

test('chosen files come home as one ZIP made in the browser, a folder per package', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    const count = () => page.getByTestId('selected-count').textContent();
    await page.getByLabel('Flyer Wechselbonus Strom.pdf auswählen').check();
    await page.getByLabel('Plakat Wechselbonus A1.svg auswählen').check();
    assert.equal(await count(), '2');
    await page.getByTestId('select-all').check();
    const onPage = await page.locator('[data-testid="download-row"] input[aria-label$=" auswählen"]:not([aria-label^="Alle"])').count();
    assert.equal(await count(), String(onPage));
    await page.getByTestId('select-all').uncheck();
    assert.equal(await count(), '0');

    // This month's material of two packages.
    await page.getByTestId('load-more').click();
    await page.getByTestId('no-more').waitFor();
    await page.getByLabel('Alle Dateien von Glasfaser-Sommeraktion Privatkunden auswählen').check();
    await page.getByLabel('Flyer Wechselbonus Strom.pdf auswählen').check();
    assert.equal(await count(), '3');
    await page.getByTestId('manager-open').click();
    const manager = page.getByTestId('download-manager');
    assert.match(await manager.getByTestId('manager-summary').textContent(), /3 Dateien/);
    const [download] = await Promise.all([page.waitForEvent('download'), manager.getByTestId('manager-start').click()]);
    assert.match(download.suggestedFilename(), /^\d{4}-\d{2}-\d{2}_E2E Aktionsportal\.zip$/);
    const entries = readZip(await readFile(await download.path()));
    assert.deepEqual(
      entries.map((e) => e.name),
      [
        'Glasfaser-Sommeraktion Privatkunden/Flyer Glasfaser Sommeraktion.pdf',
        'Glasfaser-Sommeraktion Privatkunden/Banner Glasfaser Sommeraktion.png',
        'Stadtwerke Nord Strom-Wechselbonus/Flyer Wechselbonus Strom.pdf',
      ],
    );
    const links = {
      'Flyer Glasfaser Sommeraktion.pdf': 'Flyer Glasfaser Sommeraktion.pdf herunterladen',
      'Banner Glasfaser Sommeraktion.png': 'Banner Glasfaser Sommeraktion.png herunterladen',
      'Flyer Wechselbonus Strom.pdf': 'Flyer Wechselbonus Strom.pdf herunterladen',
    };
    for (const entry of entries) {
      const href = await page.getByRole('link', { name: links[entry.name.split('/')[1]] }).getAttribute('href');
      assert.ok(entry.bytes.equals(await fileBytes(page, href)), `bytes of ${entry.name}`);
    }
    await page.getByTestId('toast-message').getByText('Die Dateien wurden in eine ZIP-Datei gepackt.').waitFor();
    await manager.getByRole('button', { name: 'Schließen' }).last().click();
    assert.equal(await manager.count(), 0);
    assert.deepEqual(consoleErrors, []);
  }));

test('a selection above the limit comes as the server ZIP, with the same name and folders', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    await page.getByLabel('Suchbegriff').fill('E2E Großes');
    await expectPackages(page, [BIG_PACKAGE]);
    await page.getByLabel(`${BIG_FILE} auswählen`).check();
    await page.getByTestId('manager-open').click();
    const manager = page.getByTestId('download-manager');
    assert.match(await manager.getByTestId('manager-server-route').textContent(), /größer als 1 MB.*vom Server erstellt/);
    const [download] = await Promise.all([page.waitForEvent('download'), manager.getByTestId('manager-start').click()]);
    assert.match(download.url(), /\/api\/downloads\/zip\?files=\d+:\d+$/);
    assert.match(download.suggestedFilename(), /^\d{4}-\d{2}-\d{2}_E2E Aktionsportal\.zip$/);
    const entries = readZip(await readFile(await download.path()));
    assert.deepEqual(entries.map((e) => e.name), [`${BIG_PACKAGE}/${BIG_FILE}`]);
    assert.equal(entries[0].bytes.length, BIG_SIZE);
    const href = await page.getByRole('link', { name: `${BIG_FILE} herunterladen` }).getAttribute('href');
    assert.ok(entries[0].bytes.equals(await fileBytes(page, href)));
    assert.match(await manager.getByTestId('manager-notice').textContent(), /Download-Anzeige Ihres Browsers/);
    assert.deepEqual(consoleErrors, []);
  }));

test('toasts keep clear of the header and of a dialog’s controls, and one message shows once', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await page.setViewportSize({ width: 900, height: 700 });
    await asDealer(ctx);
    await page.getByTestId('manager-open').click();
    const manager = page.getByTestId('download-manager');
    for (let i = 0; i < 4; i += 1) await manager.getByTestId('manager-start').click();
    const toast = page.getByTestId('toast');
    await toast.first().waitFor();
    assert.equal(await toast.count(), 1, 'the same message is not stacked');
    assert.equal(await toast.getByTestId('toast-message').textContent(), 'Keine Downloads ausgewählt!');
    assert.equal(await manager.getByTestId('manager-notice').textContent(), 'Keine Downloads ausgewählt!');
    // Every control of the dialog is what a click there reaches.
    for (const control of await manager.locator('button').all()) {
      const box = await control.boundingBox();
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid="download-manager"]') !== null,
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      assert.ok(hit, `${await control.textContent()} is covered`);
    }
    // Without a dialog (the toast is still there), toasts start below the header.
    await manager.getByRole('button', { name: 'Schließen' }).last().click();
    const header = await page.locator('header').boundingBox();
    await page.waitForFunction(() => !document.querySelector('body > .modal'));
    await page.waitForTimeout(100);
    const shown = await toast.first().boundingBox();
    assert.ok(shown.y >= header.y + header.height, `toast at ${shown.y}, header ends at ${header.y + header.height}`);
    assert.deepEqual(consoleErrors, []);
  }));

test('the tour starts on the first visit, reloads when finished, and not on the second visit', () =>
  withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx, { tour: true });
    const tooltip = page.locator('[data-joyride-step]');
    await tooltip.waitFor();
    assert.match(await tooltip.textContent(), /Suche/);
    assert.match(await page.getByTestId('button-primary').textContent(), /Weiter \(1 von 20\)/);
    const seen = [];
    for (let step = 1; step <= 20; step += 1) {
      await page.locator(`[data-joyride-step="${step - 1}"]`).waitFor();
      seen.push(await page.locator('#joyride-tooltip-title').textContent().catch(() => ''));
      // Not while joyride still scrolls to the step or places it (a click could be lost).
      await settledStep(page, step - 1, `step ${step}; seen: ${seen.join(', ')}`);
      if (step === 20) {
        await Promise.all([page.waitForEvent('load'), page.getByTestId('button-primary').click()]);
      } else {
        await nextStep(page, step - 1, `step ${step}; seen: ${seen.join(', ')}`);
      }
    }
    assert.equal(seen.length, 20);
    assert.equal(seen[17], 'Weitere laden', seen.join(', '));
    assert.ok(seen.includes('Archivierte Downloads') && seen.includes('Mein Konto'), seen.join(', '));
    await islandReady(page);
    await page.waitForTimeout(500);
    assert.equal(await tooltip.count(), 0, 'no tour after finishing');
    assert.ok(await page.evaluate((key) => window.localStorage.getItem(key) !== null, TOUR_FLAG));

    // The help button starts it again at any time; Escape or skipping ends it.
    await page.getByTestId('tour-start').click();
    await tooltip.waitFor();
    await page.getByTestId('button-skip').click();
    await tooltip.waitFor({ state: 'detached' });
    await page.goto('/user/downloads');
    await islandReady(page);
    await page.waitForTimeout(500);
    assert.equal(await tooltip.count(), 0, 'no tour on the second visit');
    assert.deepEqual(consoleErrors, []);
  }));

test('a dealer on no list sees nothing of other dealers, also not by guessing file URLs', async () => {
  const known = await withPage(async (ctx) => {
    await asDealer(ctx);
    const { page } = ctx;
    const paths = await page.locator('[data-tour="file-link"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const packages = await page.locator('[data-tour="package-zip"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    return { paths, packages };
  });
  assert.ok(known.paths.length > 5);
  // Provider logos are shown to everyone signed in (spec: logo or name in every list).
  const logos = await withPage(async ({ page }) => {
    await logIn(page, 'admin');
    await page.waitForURL((url) => !url.pathname.startsWith('/api/auth/login'));
    const providers = await json(await page.request.get('/api/providers/?limit=100&offset=0'));
    return new Set(providers.content.map((p) => p.Upload?.id ?? p.uploadId).filter(Boolean));
  });
  await withPage(async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx, { login: 'fremdhaendler' });
    assert.match(await page.getByTestId('no-packages').textContent(), /Noch keine Download-Pakete/);
    assert.equal(await page.locator('table').count(), 0);
    // A short page: the footer stays at the bottom of the window.
    const footer = await page.locator('footer').boundingBox();
    assert.ok(Math.abs(footer.y + footer.height - page.viewportSize().height) < 1, 'footer at the bottom');
    assert.deepEqual(await json(await page.request.get('/api/downloads/contact/?limit=20&offset=0')), {
      content: [],
      count: 0,
      newSinceVisit: null,
    });
    for (const path of [...known.paths, ...known.packages]) {
      assert.equal((await page.request.get(path)).status(), 404, path);
    }
    // Guessing: every id up to beyond the highest one known.
    const highest = Math.max(...known.paths.map((p) => Number(p.split('/')[2])));
    for (let id = 1; id <= highest + 5; id += 1) {
      const guesses = [`/api/download/${id}`, `/api/download/${id}/zip`, `/api/downloads/zip?files=${id}:${id}`];
      // A file's previews have the file's rights (a logo's: everyone signed in).
      if (!logos.has(id)) guesses.push(`/files/${id}/x.pdf`, `/previews/${id}/thumb.jpg`, `/previews/${id}/large.jpg`);
      for (const path of guesses) {
        assert.equal((await page.request.get(path)).status(), 404, path);
      }
    }
    assert.deepEqual(consoleErrors, []);
  });
});
