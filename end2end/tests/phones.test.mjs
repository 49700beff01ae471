// The customer page on phones, tablets and desktops (issue 21): no sideways scrolling from
// 320 px up (nor on the admin screens), cards with previews and large download links below the
// lg breakpoint, sheets for the filters and the download manager, the preview dialog with the
// keyboard, the tour's 20 steps at every width, and axe-core's WCAG 2.2 A/AA rules with each
// dialog open.
//
// The demo dealer `haendler` sees the demo packages (their PDFs, pictures and SVG posters got
// previews at seed-demo), and whatever other tests added.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { violationsWithEachDialog } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';
import { nextStep, settledStep } from '../lib/tour.mjs';
import { eventually } from '../lib/wait.mjs';

const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };

/** Signs in as the demo dealer, with the tour already done unless `tour`. */
async function asDealer({ page, context }, { tour = false } = {}) {
  if (!tour) await context.addInitScript((key) => window.localStorage.setItem(key, 'e2e'), TOUR_FLAG);
  await logIn(page, 'haendler');
  await page.waitForURL('**/user/downloads');
  await page.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
}

function atWidth(viewport, fn, options = {}) {
  return withPage(fn, { viewport, ...options });
}

/** Loads every package ("Weitere laden" until none are left). */
async function loadAll(page) {
  for (let i = 0; i < 20; i += 1) {
    if ((await page.getByTestId('no-more').count()) > 0) return;
    const before = await page.getByTestId('download-row').count();
    await page.getByTestId('load-more').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="download-row"]').length > n, before);
  }
}

async function sideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Boxes of the elements `selector` matches that are shown. */
async function boxes(page, selector) {
  return page.locator(selector).evaluateAll((elements) =>
    elements
      .filter((e) => e.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }))
      .map((e) => {
        const r = e.getBoundingClientRect();
        return {
          what: `${e.tagName.toLowerCase()}.${e.className} ${(e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 40)}`,
          left: r.left,
          right: r.right,
          width: r.width,
          height: r.height,
        };
      }),
  );
}

test('the customer page never scrolls sideways, from 320 px up, also with the filters open', async () => {
  for (const width of [320, 360, 390, 600, 768, 800, 1024, 1366]) {
    await atWidth({ width, height: 800 }, async (ctx) => {
      const { page, consoleErrors } = ctx;
      await asDealer(ctx);
      await loadAll(page);
      assert.equal(await sideways(page), 0, `${width} px`);
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-panel').waitFor();
      assert.equal(await sideways(page), 0, `${width} px with the filters open`);
      assert.deepEqual(consoleErrors, []);
    });
  }
});

test('the admin screens never scroll sideways on a phone: wide tables scroll inside their box', async () => {
  for (const width of [320, 360]) {
    await atWidth({ width, height: 780 }, async ({ page, consoleErrors }) => {
      await logIn(page, 'admin');
      await page.waitForURL('**/user/downloads');
      for (const path of [
        '/admin/contacts',
        '/admin/contact/edit/100001',
        '/admin/downloads',
        '/admin/download/add',
        '/admin/provider/1',
      ]) {
        await page.goto(path);
        await page.waitForFunction(() =>
          [...document.querySelectorAll('[data-island]')].every((e) => e.getAttribute('data-island-state') === 'mounted'),
        );
        // The contact editor's table of contacts is wider than a phone (it scrolls inside).
        if (path.startsWith('/admin/contact/edit')) await page.locator('table.ap-contact-table').first().waitFor();
        assert.equal(await sideways(page), 0, `${path} at ${width} px`);
      }
      assert.deepEqual(consoleErrors, []);
    });
  }
});

test('on a phone each package is a card whose files, previews and download links fit the screen', () =>
  atWidth(PHONE, async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    await loadAll(page);
    // Cards: the table's head is not shown, each row is a grid.
    assert.equal(await page.locator('.ap-downloads-table thead').isVisible(), false);
    assert.equal(
      await page.getByTestId('download-row').first().evaluate((row) => getComputedStyle(row).display),
      'grid',
    );
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    const links = await boxes(page, 'a.ap-file-download, a.ap-file-name, a.ap-package-zip');
    assert.ok(links.length >= 10, `${links.length} download links`);
    for (const link of links) {
      assert.ok(link.left >= 0 && link.right <= width, `${link.what} lies at ${link.left}–${link.right}`);
    }
    for (const main of await boxes(page, 'a.ap-file-download, a.ap-package-zip, .ap-toolbar .btn, [data-testid="load-more"]')) {
      assert.ok(main.height >= 44, `${main.what} is ${main.height} px high`);
    }
    // Targets of at least 24 × 24 CSS px (WCAG 2.2 "Target Size (Minimum)").
    const targets = await boxes(
      page,
      '.ap-customer-downloads button, .ap-customer-downloads input, .ap-customer-downloads select, .ap-customer-downloads summary, .ap-customer-downloads a.ap-thumb, .ap-customer-downloads a.btn',
    );
    for (const target of targets) {
      assert.ok(target.width >= 24 && target.height >= 24, `${target.what} is ${target.width} × ${target.height}`);
    }
    // Previews: the thumbnails load, with their size given beforehand.
    const thumbs = page.locator('a.ap-thumb img');
    assert.ok((await thumbs.count()) >= 5, 'the demo files have previews');
    await thumbs.first().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const img = document.querySelector('a.ap-thumb img');
      return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
    });
    assert.equal(await thumbs.first().getAttribute('width'), '320');

    // A file downloaded from its card's large link.
    const item = page.locator('li.ap-file').filter({ has: page.locator('a.ap-file-download') }).first();
    const name = (await item.locator('a.ap-file-name').textContent()).trim();
    const [file] = await Promise.all([page.waitForEvent('download'), item.locator('a.ap-file-download').click()]);
    assert.equal(file.suggestedFilename(), name);
    assert.ok((await readFile(await file.path())).length > 0);
    assert.deepEqual(consoleErrors, []);
  }));

test('on a phone the filters and the download manager open as sheets over the whole screen', () =>
  atWidth(PHONE, async (ctx) => {
    const { page, consoleErrors } = ctx;
    await asDealer(ctx);
    const size = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: window.innerHeight }));
    await page.getByTestId('filters-toggle').click();
    const panel = await page.getByTestId('filter-panel').boundingBox();
    assert.ok(panel.x <= 0 && panel.y <= 0 && panel.width >= size.width && panel.height >= size.height - 1, JSON.stringify(panel));
    await page.getByLabel('Archivierte Downloads anzeigen').check();
    await page.getByTestId('filters-close').click();
    await page.getByTestId('filter-panel').waitFor({ state: 'hidden' });
    assert.equal(await page.getByTestId('filter-count').textContent(), '1 aktiv');
    await page.getByTestId('filters-reset').click();

    await page.locator('[data-tour="file-checkbox"]').first().check();
    await page.getByTestId('manager-open').click();
    const manager = await page.locator('[data-testid="download-manager"] .modal-dialog').boundingBox();
    assert.ok(manager.x <= 0 && manager.width >= size.width, JSON.stringify(manager));
    assert.deepEqual(consoleErrors, []);
  }));

test('a preview opens from its thumbnail, moves through the package with the keys and adds to the manager', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    await atWidth(viewport, async (ctx) => {
      const { page, consoleErrors } = ctx;
      await asDealer(ctx);
      await loadAll(page);
      // A package of several files whose first one has a preview (the demo has such: a PDF and
      // a PNG), so the arrow keys have somewhere to go.
      const row = page
        .getByTestId('download-row')
        .filter({ has: page.locator('li.ap-file:first-child a.ap-thumb') })
        .filter({ has: page.locator('li.ap-file:nth-child(2)') })
        .first();
      const thumb = row.locator('li.ap-file').first().locator('a.ap-thumb');
      const label = await thumb.getAttribute('aria-label');
      await thumb.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('preview-dialog');
      await dialog.waitFor();
      const title = () => dialog.locator('.modal-title').textContent();
      assert.equal(label, `Vorschau von ${await title()} öffnen`);
      await page.waitForFunction(() => {
        const img = document.querySelector('[data-testid="preview-image"]');
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth >= 300;
      });
      const files = await row.locator('li.ap-file').count();
      assert.ok(files > 1, `${files} files in the package`);
      const first = await title();
      const second = (await row.locator('li.ap-file').nth(1).locator('a.ap-file-name').textContent()).trim();
      await page.keyboard.press('ArrowRight');
      await eventually(async () => assert.equal(await title(), second, 'the next file'));
      assert.match(await dialog.getByTestId('preview-position').textContent(), new RegExp(`Datei 2 von ${files}`));
      await page.keyboard.press('ArrowLeft');
      await eventually(async () => assert.equal(await title(), first, 'back to the first file'));
      await dialog.getByTestId('preview-select').click();
      assert.equal(await dialog.getByTestId('preview-select').getAttribute('aria-pressed'), 'true');
      assert.match(await page.getByTestId('selected-count').textContent(), /^1$/);
      const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('preview-download').click()]);
      assert.equal(file.suggestedFilename(), first);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), label, 'focus back on the thumbnail');
      assert.deepEqual(consoleErrors, []);
    });
  }
});

/** The tour's 20 steps by their titles, in order (islands/src/features/customer-downloads/tour/steps.ts). */
const TOUR_TITLES = [
  'Suche',
  'Suchart',
  'Filter',
  'Archivierte Downloads',
  'Tags',
  'Anbieter',
  'Zurücksetzen',
  'Alles auswählen',
  'Anbieter',
  'Bezeichnung',
  'Status',
  'Gültig ab und bis',
  'Geändert',
  'Dateien auswählen',
  'Einzelne Datei',
  'Ganzes Paket',
  'Download-Manager',
  'Weitere laden',
  'Hilfe',
  'Mein Konto',
];

/** The step on screen: its index, title and progress ("n von 20" on the primary button). */
async function tourStep(page) {
  const step = page.locator('[data-joyride-step]');
  return {
    index: Number(await step.getAttribute('data-joyride-step')),
    title: (await page.locator('#joyride-tooltip-title').textContent()).trim(),
    primary: (await page.getByTestId('button-primary').textContent()).trim(),
  };
}

function tourFlag(page) {
  return page.evaluate((key) => window.localStorage.getItem(key), TOUR_FLAG);
}

/**
 * The tour's code: a chunk of its own, loaded only when the page decides at its first render
 * that the tour runs (`lazy(() => import('./tour/GuidedTour'))` in DownloadsPage.tsx).
 */
const TOUR_CHUNK = /\/assets\/GuidedTour-[^/]+\.js$/;

/** Collects the page's requests for the tour's code from now on (also those the cache serves). */
function watchTourCode(page) {
  const requested = [];
  page.on('request', (request) => {
    if (TOUR_CHUNK.test(new URL(request.url()).pathname)) requested.push(request.url());
  });
  return requested;
}

/**
 * Reloads the customer page and checks that the tour does not start. No fixed wait: the page
 * decides at its first render whether the tour runs and then requests the tour's code at once,
 * so once the island is mounted, its list is shown and the network has been idle, a tour on its
 * way has had its code requested. (Each test also sees that request on its first visit, so the
 * watch is known to catch it.)
 */
async function expectNoTourAfterReload(page) {
  const requested = watchTourCode(page);
  await page.reload({ waitUntil: 'networkidle' });
  await page.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
  await page.getByTestId('download-row').first().waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(requested, [], 'the tour is not loaded on the next visit');
  assert.equal(await page.locator('[data-joyride-step]').count(), 0, 'no tour on the next visit');
}

test('the tour shows all 20 steps by their titles at every width, each at an element shown there', async () => {
  for (const viewport of [{ width: 320, height: 640 }, PHONE, { width: 800, height: 900 }, DESKTOP]) {
    await atWidth(viewport, async (ctx) => {
      const { page, consoleErrors } = ctx;
      await asDealer(ctx);
      await page.getByTestId('tour-start').click();
      const seen = [];
      for (const [index, title] of TOUR_TITLES.entries()) {
        const where = `${viewport.width} px, step ${index + 1} (${title}); seen: ${seen.join(', ')}`;
        await page.locator(`[data-joyride-step="${index}"]`).waitFor({ timeout: 5000 }).catch((error) => {
          throw new Error(`${where}: ${error.message}`);
        });
        const step = await tourStep(page);
        seen.push(step.title);
        assert.equal(step.title, title, where);
        // The element it points at is shown at this width (the spotlight has a size).
        await settledStep(page, index, where);
        if (title === 'Weitere laden') {
          // The line at the list's end: in the demo every package fits on one page, so it
          // says so instead of offering the button.
          const spot = await page.getByTestId('spotlight').boundingBox();
          const line = page.locator('[data-tour="load-more"]');
          const box = await line.boundingBox();
          assert.ok(
            spot.x <= box.x + 1 && spot.y <= box.y + 1 && spot.x + spot.width >= box.x + box.width - 1,
            `${where}: spotlight ${JSON.stringify(spot)} around ${JSON.stringify(box)}`,
          );
          assert.match(await line.textContent(), /^(Geladen: )?\d+\/\d+(Weitere laden|Keine weiteren Downloads vorhanden\.)$/, where);
        }
        if (index < TOUR_TITLES.length - 1) {
          assert.equal(step.primary, `Weiter (${index + 1} von 20)`, where);
          await nextStep(page, index, where);
        }
      }
      assert.deepEqual(seen, TOUR_TITLES, `${viewport.width} px`);
      assert.match((await tourStep(page)).primary, /^Fertig/);
      await page.keyboard.press('Escape');
      await page.locator('[data-joyride-step]').waitFor({ state: 'detached' });
      assert.deepEqual(consoleErrors, []);
    });
  }
});

test('on a first visit the tour starts by itself; skipping stores the flag and it does not start again', () =>
  atWidth(DESKTOP, async (ctx) => {
    const { page, consoleErrors } = ctx;
    const firstVisit = watchTourCode(page);
    await asDealer(ctx, { tour: true });
    await page.locator('[data-joyride-step="0"]').waitFor();
    assert.equal((await tourStep(page)).title, TOUR_TITLES[0]);
    assert.ok(firstVisit.length > 0, 'the first visit loads the tour (the watch below sees it)');
    assert.equal(await tourFlag(page), null, 'no flag while the tour runs');

    await page.getByTestId('button-skip').click();
    await page.locator('[data-joyride-step]').waitFor({ state: 'detached' });
    assert.notEqual(await tourFlag(page), null, 'skipping stores the flag (spec §2)');

    await expectNoTourAfterReload(page);
    assert.deepEqual(consoleErrors, []);
  }));

test('Escape ends the tour started on a first visit, which then stays done', () =>
  atWidth(PHONE, async (ctx) => {
    const { page, consoleErrors } = ctx;
    const firstVisit = watchTourCode(page);
    await asDealer(ctx, { tour: true });
    await page.locator('[data-joyride-step="0"]').waitFor();
    assert.ok(firstVisit.length > 0, 'the first visit loads the tour (the watch below sees it)');
    await page.getByTestId('button-primary').click();
    await page.locator('[data-joyride-step="1"]').waitFor();
    assert.equal((await tourStep(page)).title, TOUR_TITLES[1]);

    await page.keyboard.press('Escape');
    await page.locator('[data-joyride-step]').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('overlay').count(), 0, 'no overlay left behind');
    assert.notEqual(await tourFlag(page), null, 'ending with Escape is a skip: the flag is stored');
    // The page is usable again: the search takes the focus and text.
    await page.locator('[data-tour="search"] input').first().fill('Sommer');

    await expectNoTourAfterReload(page);
    assert.deepEqual(consoleErrors, []);
  }));

test('axe finds no WCAG 2.2 A/AA violation on a phone or a desktop, with each dialog open', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    await atWidth(
      viewport,
      async (ctx) => {
        await asDealer(ctx);
        const found = await violationsWithEachDialog(ctx.page);
        for (const [state, violations] of Object.entries(found)) {
          assert.deepEqual(violations, [], `${viewport.width} px, ${state}`);
        }
      },
      // axe is injected as a script of the test; the portal's CSP allows no inline script.
      { bypassCSP: true },
    );
  }
});
