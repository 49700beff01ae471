// Every text is shown whole (issue 35, item 1): on the customer page from a phone to a wide
// desktop, and on the admin screens from 1,024 px up, no visible text lies outside a box that
// clips or scrolls it, none needs an inner sideways scroll to be read, and no ellipsis cuts a
// text short. On a phone the admin tables keep each row's actions on the screen.
//
// The measurement walks the page's text nodes. For each one that is shown (not visually hidden
// for screen readers), it takes the client rects of the text itself and, for every ancestor
// that clips it (overflow other than visible, following containing blocks for positioned
// elements) and the page itself, checks that the rects lie inside that box's visible area:
// sideways always (a sideways scroll box must not need scrolling to show it), up and down
// where the box clips (hidden, clip; a box that scrolls up and down shows its text on the way).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { closeBrowser, withPage } from '../lib/browser.mjs';

const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';
// The widths of the issue, and the ends of the range it names (320, 2,560) and the first width
// of the table layout (992, lg).
const CUSTOMER_WIDTHS = [320, 360, 992, 1024, 1280, 1366, 1920, 2560];
const ADMIN_WIDTHS = [1024, 1366];

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

/** The page at rest: islands mounted, their data loaded, fonts and pictures in place. */
async function settled(page) {
  await islandsMounted(page);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() => document.querySelectorAll('.placeholder-glow, .spinner-border').length === 0, null, {
    timeout: 5_000,
  });
}

/**
 * Runs in the page: every shown text that lies (partly) outside a box clipping or scrolling
 * it, and every ellipsis that cuts a text short, as lines of a report.
 */
function measureTexts() {
  const SLACK = 1; // sub-pixel rounding of the layout
  const problems = [];
  const seen = new Set();

  const describe = (el) => {
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${id}${cls}`;
  };
  const round = (n) => Math.round(n);

  /** Screen-reader-only boxes (Bootstrap's visually-hidden): clipped on purpose. */
  const visuallyHidden = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.clip !== 'auto' && cs.position === 'absolute') return true;
      if (cs.clipPath !== 'none' && /inset\(50%\)/.test(cs.clipPath)) return true;
      const r = e.getBoundingClientRect();
      if (r.width <= 1 && r.height <= 1 && cs.overflow !== 'visible') return true;
    }
    return false;
  };

  /** The ancestors that clip `el` (following containing blocks), nearest first. */
  const clippers = (el) => {
    const result = [];
    let position = getComputedStyle(el).position;
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      const containsFixed = cs.transform !== 'none' || cs.filter !== 'none' || /paint|layout|strict|content/.test(cs.contain);
      const containsAbsolute = cs.position !== 'static' || containsFixed;
      if (position === 'fixed' && !containsFixed) continue;
      if (position === 'absolute' && !containsAbsolute) continue;
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') result.push({ el: a, cs });
      position = cs.position;
    }
    return result;
  };

  /** The part of `el` its content shows in (inside borders and scrollbars). */
  const visibleRect = (el) => {
    const r = el.getBoundingClientRect();
    const left = r.left + el.clientLeft;
    const top = r.top + el.clientTop;
    return { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const pageWidth = document.documentElement.clientWidth;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const el = node.parentElement;
    if (!el || el.closest('script, style, template, noscript, select, option, textarea')) continue;
    if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
    if (visuallyHidden(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (rects.length === 0) continue;
    const report = (where, box, rect) => {
      const key = `${describe(el)}|${text}|${where}`;
      if (seen.has(key)) return;
      seen.add(key);
      problems.push(
        `"${text.slice(0, 48)}" (${describe(el)}) at x ${round(rect.left)}–${round(rect.right)}, y ${round(rect.top)}–${round(rect.bottom)}: ` +
          `${where} (shown: x ${round(box.left)}–${round(box.right)}, y ${round(box.top)}–${round(box.bottom)})`,
      );
    };
    let clipped = false;
    for (const { el: box, cs } of clippers(el)) {
      const v = visibleRect(box);
      const scrolls = box.scrollWidth > box.clientWidth + SLACK;
      const clipsY = cs.overflowY === 'hidden' || cs.overflowY === 'clip';
      for (const rect of rects) {
        const outX = rect.left < v.left - SLACK || rect.right > v.right + SLACK;
        const outY = clipsY && (rect.top < v.top - SLACK || rect.bottom > v.bottom + SLACK);
        if (outX || outY) {
          clipped = true;
          const how = scrolls && outX ? 'needs a sideways scroll of' : 'is cut off by';
          report(`${how} ${describe(box)} (overflow ${cs.overflowX}/${cs.overflowY})`, v, rect);
        }
      }
    }
    // Inside its boxes but beyond the page's width: the page itself scrolls sideways.
    if (clipped) continue;
    for (const rect of rects) {
      if (rect.left < -SLACK || rect.right > pageWidth + SLACK) {
        report('lies beyond the page, which scrolls sideways', { left: 0, right: pageWidth, top: 0, bottom: 0 }, rect);
      }
    }
  }

  // A select shows its chosen option in its own box (no text node to measure): the option's
  // text must fit between the select's paddings (the right one holds the arrow).
  const canvas = document.createElement('canvas').getContext('2d');
  for (const select of document.body.querySelectorAll('select')) {
    if (!select.checkVisibility({ visibilityProperty: true }) || visuallyHidden(select)) continue;
    const option = select.selectedOptions[0];
    if (!option) continue;
    const cs = getComputedStyle(select);
    canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const needed = canvas.measureText(option.text).width;
    const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (needed > room + SLACK) {
      problems.push(`"${option.text}" (${describe(select)}) needs ${Math.ceil(needed)} px, its select shows ${Math.floor(room)} px`);
    }
  }

  // Ellipses that cut a text short.
  for (const el of document.body.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    if (cs.textOverflow !== 'ellipsis' || cs.overflowX === 'visible') continue;
    if (!el.checkVisibility({ visibilityProperty: true }) || visuallyHidden(el)) continue;
    if (el.scrollWidth > el.clientWidth + SLACK) {
      problems.push(`"${el.textContent.replace(/\s+/g, ' ').trim().slice(0, 48)}" (${describe(el)}) is cut short by an ellipsis`);
    }
  }
  return problems;
}

/** The problems of the page at its current state, each prefixed with where it was found. */
async function textProblems(page, where) {
  const problems = await page.evaluate(measureTexts);
  return problems.map((p) => `${where}: ${p}`);
}

async function getJson(page, path) {
  return page.evaluate(async (url) => (await fetch(url, { credentials: 'same-origin' })).json(), path);
}

/** Loads every package of the customer page ("Weitere laden" until none are left). */
async function loadAll(page) {
  for (let i = 0; i < 20; i += 1) {
    if ((await page.getByTestId('no-more').count()) > 0) return;
    const before = await page.getByTestId('download-row').count();
    await page.getByTestId('load-more').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="download-row"]').length > n, before);
  }
}

// Besides the demo's names, a package whose name and file name have no space to wrap at (on
// the dealer's list "Glasfaser Privatkunden"); removed after the tests.
const runTag = Date.now().toString(36).slice(-4);
const LONG_PACKAGE = `Sommeraktion-Glasfaser-Privatkunden-Gewerbekunden-Bestandskunden-${runTag}`;
const LONG_FILE = 'Vertriebsunterlagen_Glasfaser_Sommeraktion_Privatkunden_2026_final_v3.txt';
let longPackageId = null;

async function json(response) {
  assert.ok(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`);
  return response.json();
}

before(() =>
  withPage(async ({ page }) => {
    await logIn(page, 'admin');
    await page.waitForURL('**/user/downloads');
    const providers = await json(await page.request.get('/api/providers/?limit=50&offset=0'));
    const provider = providers.content.find((p) => p.name === 'Glasfaser Süd');
    const lists = await json(
      await page.request.get(`/api/providers/${provider.id}/lists/?limit=50&offset=0&activeStatus=true&inactiveStatus=true`),
    );
    const list = lists.content.find((l) => l.name === 'Glasfaser Privatkunden');
    const upload = await json(
      await page.request.post('/api/upload/', {
        multipart: { 'files[0]': { name: LONG_FILE, mimeType: 'text/plain', buffer: Buffer.from('Hinweise zur Aktion.\n') } },
      }),
    );
    const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const created = await json(
      await page.request.post('/api/download/', {
        data: {
          name: LONG_PACKAGE,
          startAt: day(-1),
          endAt: day(30),
          ProviderId: provider.id,
          listsIds: [list.id],
          uploadsToInsert: [upload.id],
        },
      }),
    );
    longPackageId = created.id;
  }),
);

// The browser helper closes its browser after the file's tests, before this hook: close the
// one this hook opens as well, or the test process would not end.
after(async () => {
  if (longPackageId === null) return;
  try {
    await withPage(async ({ page }) => {
      await logIn(page, 'admin');
      await page.waitForURL('**/user/downloads');
      const response = await page.request.delete(`/api/download/${longPackageId}`);
      assert.ok(response.ok(), `DELETE /api/download/${longPackageId}: ${response.status()}`);
    });
  } finally {
    await closeBrowser();
  }
});

test('the customer page shows every text whole, from a phone to a wide desktop', async () => {
  const problems = [];
  for (const width of CUSTOMER_WIDTHS) {
    await withPage(
      async ({ page, context, consoleErrors }) => {
        await context.addInitScript((key) => window.localStorage.setItem(key, 'e2e'), TOUR_FLAG);
        await logIn(page, 'haendler');
        await page.waitForURL('**/user/downloads');
        await settled(page);
        await loadAll(page);
        assert.ok((await page.getByTestId('download-row').count()) >= 5, 'the demo packages are listed');
        await page.getByText(LONG_FILE, { exact: true }).waitFor();
        problems.push(...(await textProblems(page, `/user/downloads at ${width} px`)));
        assert.deepEqual(consoleErrors, []);
      },
      { viewport: { width, height: 900 } },
    );
  }
  assert.deepEqual(problems, []);
});

/**
 * A provider with criteria, so that its page has rows (the other test files add providers
 * without any, which may sort first).
 */
async function providerWithLists(page) {
  for (const provider of (await getJson(page, '/api/providers/?limit=100&offset=0')).content) {
    const lists = await getJson(page, `/api/providers/${provider.id}/lists/?limit=1&offset=0&activeStatus=true&inactiveStatus=true`);
    if (lists.count > 0) return provider;
  }
  assert.fail('no provider with criteria');
}

/** The admin screens of the demo, with the ids of its data. */
async function adminPaths(page) {
  const provider = await providerWithLists(page);
  const contact = (await getJson(page, '/api/contacts?limit=1&offset=0')).content[0];
  assert.ok(provider && contact, 'demo data');
  return [
    '/admin/downloads/',
    '/admin/contacts',
    `/admin/provider/${provider.id}`,
    '/admin/tags',
    '/admin/audit',
    '/admin/statistics',
    '/admin/contact/edit',
    `/admin/contact/edit/${contact.customerNumber}`,
    '/admin/download/add/',
  ];
}

test('the admin screens show every text whole from 1,024 px up', async () => {
  const problems = [];
  for (const width of ADMIN_WIDTHS) {
    await withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        for (const path of await adminPaths(page)) {
          await page.goto(path);
          await settled(page);
          problems.push(...(await textProblems(page, `${path} at ${width} px`)));
        }
        assert.deepEqual(consoleErrors, []);
      },
      { viewport: { width, height: 900 } },
    );
  }
  assert.deepEqual(problems, []);
});

test('on a phone every row action of the admin tables is on the screen without a sideways scroll', () =>
  withPage(
    async ({ page, consoleErrors }) => {
      await logIn(page, 'admin');
      await page.waitForURL('**/user/downloads');
      const provider = await providerWithLists(page);
      const off = [];
      for (const path of ['/admin/downloads/', '/admin/contacts', `/admin/provider/${provider.id}`, '/admin/tags']) {
        await page.goto(path);
        await settled(page);
        const actions = await page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          return [...document.querySelectorAll('table tbody tr')]
            .filter((row) => row.checkVisibility())
            .flatMap((row) => [...row.querySelectorAll('button, a, summary, [role="button"]')])
            .filter((el) => el.checkVisibility() && el.closest('td:last-child, .ap-row-actions'))
            .map((el) => {
              const r = el.getBoundingClientRect();
              // The box that scrolls the table sideways: what it shows without scrolling.
              let left = 0;
              let right = width;
              for (let a = el.parentElement; a; a = a.parentElement) {
                if (getComputedStyle(a).overflowX !== 'visible') {
                  const b = a.getBoundingClientRect();
                  left = Math.max(left, b.left + a.clientLeft);
                  right = Math.min(right, b.left + a.clientLeft + a.clientWidth);
                }
              }
              const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
              return { name, left: r.left, right: r.right, shownLeft: left, shownRight: right };
            });
        });
        assert.ok(actions.length > 0, `${path} has row actions`);
        for (const a of actions) {
          if (a.left < a.shownLeft - 1 || a.right > a.shownRight + 1) {
            off.push(`${path}: "${a.name}" at x ${Math.round(a.left)}–${Math.round(a.right)}, shown ${Math.round(a.shownLeft)}–${Math.round(a.shownRight)}`);
          }
        }
      }
      assert.deepEqual(off, []);
      assert.deepEqual(consoleErrors, []);
    },
    { viewport: { width: 360, height: 780 } },
  ));
