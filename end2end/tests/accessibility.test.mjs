// axe-core's WCAG 2.0–2.2 A and AA rules (with 2.2's target size) on every screen's layout,
// signed out and as the admin, at the narrowest width the portal supports and on a desktop.
// The customer page with its dialogs has its own walk (tests/phones.test.mjs).
//
// Not here: /serverDown, whose 10-second redirect (spec §2) has a <meta http-equiv="refresh">
// fallback for browsers without JavaScript, which axe's meta-refresh rule (WCAG 2.2.1) rejects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { axeViolations } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';

const WIDTHS = [
  { width: 320, height: 640 },
  { width: 1366, height: 900 },
];

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

async function check(page, path, viewport) {
  await page.goto(path);
  await islandsMounted(page);
  assert.deepEqual(await axeViolations(page), [], `${path} at ${viewport.width} px`);
}

async function getJson(page, path) {
  return page.evaluate(async (url) => (await fetch(url, { credentials: 'same-origin' })).json(), path);
}

for (const viewport of WIDTHS) {
  test(`axe finds no WCAG 2.2 A/AA violation on the public pages at ${viewport.width} px`, () =>
    // axe is injected as a script of the test; the portal's CSP allows no inline script.
    withPage(
      async ({ page, consoleErrors }) => {
        for (const path of ['/login-failed', '/unauthorized', '/gibt-es-nicht']) await check(page, path, viewport);
        await page.goto('/login');
        await page.waitForURL('**/api/auth/login');
        assert.deepEqual(await axeViolations(page), [], `login form at ${viewport.width} px`);
        // The 404 page answers 404 (an expected console error of the browser).
        assert.ok(consoleErrors.every((line) => /404/.test(line)), consoleErrors.join('\n'));
      },
      { viewport, bypassCSP: true },
    ));

  test(`axe finds no WCAG 2.2 A/AA violation on the admin screens at ${viewport.width} px`, () =>
    withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        const provider = (await getJson(page, '/api/providers/?limit=1&offset=0')).content[0];
        const contact = (await getJson(page, '/api/contacts?limit=1&offset=0')).content[0];
        assert.ok(provider && contact, 'demo data');
        for (const path of [
          '/admin/contacts',
          '/admin/contact/edit',
          `/admin/contact/edit/${contact.customerNumber}`,
          `/admin/provider/${provider.id}`,
          '/admin/downloads/',
          '/admin/download/add/',
          '/admin/tags',
        ]) {
          await check(page, path, viewport);
        }
        assert.deepEqual(consoleErrors, []);
      },
      { viewport, bypassCSP: true },
    ));
}
