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

test('BU-DOI lands on "Kontakte bearbeiten", opens a customer by number and finds its way back', () =>
  withPage(async ({ page, consoleErrors }) => {
    await logIn(page, 'doi');
    await page.waitForURL('**/admin/contact/edit');
    assert.equal(await page.locator('h1').textContent(), 'Kontakte bearbeiten');

    // A number that is none, and one the portal does not know, stay here with a message.
    await page.getByTestId('customer-number').fill('Schmidt');
    await page.getByTestId('open-customer').click();
    assert.match(await page.getByTestId('customer-number-error').textContent(), /ist keine Kundennummer/);
    await page.getByTestId('customer-number').fill('999999');
    await page.getByTestId('open-customer').click();
    assert.match(await page.getByTestId('customer-number-error').textContent(), /Kundennummer 999999 ist nicht bekannt/);

    await page.getByTestId('customer-number').fill('100003');
    await page.getByTestId('open-customer').click();
    await page.waitForURL('**/admin/contact/edit/100003');
    await page.locator('[data-island="ContactEditor"][data-island-state="mounted"]').waitFor();
    // Back leads to the start page, not to the contacts list BU-DOI may not open.
    assert.equal(await page.getByTestId('back').getAttribute('href'), '/admin/contact/edit');

    // The account menu names the area; /unauthorized leads back to the start page.
    await page.getByTestId('account-menu-toggle').click();
    const panel = page.getByTestId('account-menu-panel');
    assert.equal(await panel.getByRole('link', { name: 'Kontakte bearbeiten' }).getAttribute('href'), '/admin/contact/edit');
    assert.equal(await panel.getByRole('link', { name: 'Adminansicht' }).count(), 0);
    await page.goto('/user/downloads');
    assert.equal(pathOf(page.url()), '/unauthorized');
    await page.getByTestId('unauthorized-back').click();
    await page.waitForURL('**/admin/contact/edit');
    await page.goto('/');
    await page.waitForURL('**/admin/contact/edit');
    assert.deepEqual(consoleErrors, []);
  }));
