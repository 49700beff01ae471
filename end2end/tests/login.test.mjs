// Signing in with a local account, the profile in the my-account menu, the guard, logout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoPassword, logIn } from '../lib/accounts.mjs';
import { withPage } from '../lib/browser.mjs';

const pathOf = (url) => new URL(url).pathname;

test('a dealer logs in, sees the profile, is kept out of the admin area and logs out', () =>
  withPage(async ({ page, consoleErrors }) => {
    await logIn(page, 'haendler');
    await page.waitForURL('**/user/downloads');
    assert.equal(await page.locator('h1').textContent(), 'Aktionsportal Netzvermarktung');

    await page.getByTestId('account-menu-toggle').click();
    const panel = page.getByTestId('account-menu-panel');
    await panel.waitFor();
    const profile = await panel.textContent();
    assert.match(profile, /Hanna Händler/);
    assert.match(profile, /Kundennummer: 100001/);
    assert.match(profile, /haendler@aktionsportal\.example/);
    assert.equal(await panel.getByRole('link', { name: 'Adminansicht' }).count(), 0, 'no view links for dealers');

    await page.goto('/admin/contacts');
    assert.equal(pathOf(page.url()), '/unauthorized');
    assert.match(await page.locator('body').textContent(), /Helpdesk-Ticket/);

    await page.getByTestId('account-menu-toggle').click();
    await page.getByTestId('account-menu-panel').getByRole('link', { name: 'Abmelden' }).click();
    await page.waitForURL('**/api/auth/login');
    await page.goto('/admin/contacts?suche=M%C3%BCller');
    // The guard sends to /login, which forwards to the login form; both remember the page.
    await page.waitForURL('**/api/auth/login?next=%2Fadmin%2Fcontacts%3Fsuche%3DM%25C3%25BCller');
    assert.equal(
      await page.locator('input[name="next"]').getAttribute('value'),
      '/admin/contacts?suche=M%C3%BCller',
    );
    assert.deepEqual(consoleErrors, []);
  }));

test('an admin sees the links to both views and reaches the admin area', () =>
  withPage(async ({ page, context }) => {
    // The guided tour starts on a first visit of the customer page and would cover the menu.
    await context.addInitScript(() =>
      window.localStorage.setItem('aktionsportal:tour-downloads-completed', 'e2e'),
    );
    await logIn(page, 'admin');
    await page.waitForURL('**/user/downloads');
    await page.getByTestId('account-menu-toggle').click();
    await page.getByTestId('account-menu-panel').getByRole('link', { name: 'Adminansicht' }).click();
    await page.waitForURL('**/admin/contacts');
    assert.equal(await page.locator('h1').textContent(), 'Händler');
  }));

test('a deep link opened while signed out opens again after the login', () =>
  withPage(async ({ page, consoleErrors }) => {
    await page.goto('/admin/downloads');
    await page.waitForURL('**/api/auth/login?next=%2Fadmin%2Fdownloads');
    await page.getByLabel('Login').fill('admin');
    await page.getByLabel('Passwort').fill(demoPassword('admin'));
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL('**/admin/downloads');
    assert.equal(await page.locator('h1').textContent(), 'Downloads');
    assert.deepEqual(consoleErrors, []);
  }));

test('a wrong password shows one German message', () =>
  withPage(async ({ page }) => {
    await page.goto('/api/auth/login');
    await page.getByLabel('Login').fill('haendler');
    await page.getByLabel('Passwort').fill('falsches-passwort');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL('**/api/auth/login?fehler=zugangsdaten');
    assert.equal(await page.getByRole('alert').textContent(), 'Login oder Passwort ist nicht korrekt.');
  }));
