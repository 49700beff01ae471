// Public pages in a real browser: the login prompt, the 404 page, the server-down countdown
// (with and without JavaScript), and an island that reacts to a click.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withPage } from '../lib/browser.mjs';

const pathOf = (url) => new URL(url).pathname;

test('login page shows the prompt and forwards to the login endpoint', () =>
  withPage(async ({ page }) => {
    // The prompt itself, as served (the browser leaves it at once).
    const response = await page.request.get('/login', { maxRedirects: 0 });
    assert.equal(response.status(), 200);
    const html = await response.text();
    assert.match(html, /Jetzt anmelden/);
    assert.match(html, /Jetzt Partner werden/);
    // The browser is sent on to the login endpoint without any click.
    await page.goto('/login');
    await page.waitForURL('**/api/auth/login');
    await page.getByLabel('Passwort').waitFor();
  }));

test('unknown paths show the 404 page with a link to the portal', () =>
  withPage(async ({ page, consoleErrors }) => {
    const response = await page.goto('/gibt-es-nicht');
    assert.equal(response.status(), 404);
    assert.equal(await page.locator('h1').textContent(), 'Seite nicht gefunden');
    const link = page.getByRole('link', { name: 'Zum Portal' });
    assert.equal(await link.getAttribute('href'), '/');
    assert.equal(await page.title(), 'E2E Aktionsportal');
    // Chromium reports the 404 of the document itself; anything else would be a fault.
    assert.deepEqual(consoleErrors.filter((e) => !e.includes('/gibt-es-nicht')), []);
  }));

test('server-down page counts down with JavaScript and then opens the portal', () =>
  withPage(async ({ page }) => {
    const response = await page.goto('/serverDown');
    assert.equal(response.status(), 503);
    assert.equal(await page.locator('h1').textContent(), 'Server nicht erreichbar');
    const countdown = page.locator('[data-island="Countdown"]');
    await page.waitForFunction(
      () => /in [0-9] Sekunden/.test(document.querySelector('[data-island="Countdown"]')?.textContent ?? ''),
      null,
      { timeout: 5_000 },
    );
    assert.match(await countdown.textContent(), /zum Portal weitergeleitet/);
    const home = await page.waitForRequest((req) => pathOf(req.url()) === '/' && req.isNavigationRequest(), {
      timeout: 15_000,
    });
    assert.ok(home);
  }));

test('server-down page returns to the portal without JavaScript too', () =>
  withPage(
    async ({ page }) => {
      await page.goto('/serverDown');
      assert.match(await page.locator('body').textContent(), /Sie werden in 10 Sekunden zum Portal weitergeleitet/);
      const started = Date.now();
      await page.waitForRequest((req) => pathOf(req.url()) === '/' && req.isNavigationRequest(), { timeout: 15_000 });
      assert.ok(Date.now() - started >= 8_000, 'the refresh waits for the countdown');
    },
    { javaScriptEnabled: false },
  ));

test('the account menu island opens on click', () =>
  withPage(async ({ page, consoleErrors }) => {
    await page.goto('/login-failed');
    const toggle = page.getByTestId('account-menu-toggle');
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    const panel = page.getByTestId('account-menu-panel');
    await panel.waitFor();
    assert.match(await panel.textContent(), /Sie sind nicht angemeldet\./);
    assert.equal(await panel.getByRole('link', { name: 'Anmelden' }).getAttribute('href'), '/api/auth/login');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    assert.deepEqual(consoleErrors, []);
  }));
