// The audit log (issue 24) in a real browser against the local-mode portal of scripts/e2e.sh:
// a package the admin creates and archives in the downloads list shows in the Protokoll with
// who did it and the field before and after; the row's "Verlauf" opens that history; the
// filter form narrows the log and says in German what it refuses; and axe finds no WCAG 2.2
// A/AA violation at 320 and 1366 px, nor sideways scrolling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { axeViolations } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';
import { expectToast } from '../lib/toasts.mjs';
import { eventually } from '../lib/wait.mjs';

async function json(response) {
  assert.ok(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`);
  return response.json();
}

function berlinToday() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

/** A package of the first provider for its first list, named uniquely for this run; its id. */
async function newPackage(page, name) {
  const providers = await json(await page.request.get('/api/providers?limit=1'));
  const provider = providers.content[0];
  const lists = await json(await page.request.get(`/api/providers/${provider.id}/lists?limit=1`));
  const today = berlinToday();
  const created = await json(
    await page.request.post('/api/download/', {
      data: { name, startAt: today, endAt: today, ProviderId: provider.id, listsIds: [lists.content[0].id], uploadsToInsert: [] },
    }),
  );
  return created.id;
}

const rowOf = (page, name) =>
  page.getByTestId('download-row').filter({ has: page.getByTestId('download-name-cell').getByText(name, { exact: true }) });

test('a change in the downloads list shows in the Protokoll, and each row opens its history', () =>
  withPage(async ({ page, consoleErrors }) => {
    await logIn(page, 'admin');
    await page.waitForURL('**/user/downloads');
    const me = await json(await page.request.get('/api/login/user'));
    const name = `Protokoll ${Date.now()}`;
    const id = await newPackage(page, name);

    // Archived through the row menu, as an admin does it.
    await page.goto('/admin/downloads/');
    await islandsMounted(page);
    await page.getByTestId('downloads-search').fill(name);
    const row = rowOf(page, name);
    await row.waitFor();
    await row.getByTestId('row-actions').click();
    const history = row.getByTestId('row-menu').getByRole('link', { name: 'Verlauf' });
    assert.equal(await history.getAttribute('href'), `/admin/audit?entity=package&entityId=${id}`);
    await row.getByTestId('row-menu').getByRole('button', { name: 'Archivieren' }).click();
    await expectToast(page, 'success', 'Erfolgreich aktualisiert');
    await row.waitFor({ state: 'detached' });

    // The menu's "Protokoll", then the filter form: this package's history.
    await page.getByTestId('admin-menu-audit').click();
    await page.waitForURL('**/admin/audit');
    await page.getByLabel('Bereich').selectOption('package');
    await page.getByLabel('ID', { exact: true }).fill(String(id));
    await page.getByRole('button', { name: 'Filtern' }).click();
    await page.waitForURL(`**/admin/audit?entity=package&entityId=${id}**`);
    const entries = page.getByTestId('audit-entry');
    await eventually(async () => assert.equal(await entries.count(), 2));
    const newest = entries.first();
    assert.equal((await newest.locator('td').nth(1).textContent()).trim(), me.email);
    assert.equal((await newest.locator('td').nth(2).textContent()).trim(), 'archiviert');
    assert.match(await newest.locator('td').nth(0).textContent(), /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
    // In the words of the download form, the package by its name; the stored values behind "Details".
    const change = (entry, key) => entry.locator(`li[data-field="${key}"]`).textContent();
    assert.equal((await change(newest, 'archived')).replace(/\s+/g, ' ').trim(), 'Archiviert: nicht archiviert → archiviert');
    assert.equal((await newest.locator('td').nth(3).textContent()).trim(), `Download-Paket „${name}“`);
    assert.equal(await newest.locator('details summary').textContent(), 'Details');
    const created = entries.nth(1);
    assert.equal((await created.locator('td').nth(2).textContent()).trim(), 'angelegt');
    assert.equal((await change(created, 'name')).replace(/\s+/g, ' ').trim(), `Bezeichnung: — → ${name}`);
    assert.equal(await page.getByLabel('Bereich').inputValue(), 'package', 'the form keeps the filter');

    // A filter the server refuses: its German reason, nothing listed.
    await page.getByLabel('ID', { exact: true }).fill('keine Zahl');
    await page.getByRole('button', { name: 'Filtern' }).click();
    await page.getByRole('alert').getByText('entityId muss eine positive ganze Zahl sein.').waitFor();
    await page.getByTestId('audit-empty').waitFor();

    await page.request.delete(`/api/download/${id}`);
    // The refused filter's page comes with status 400, which Chromium logs; nothing else.
    assert.deepEqual(
      consoleErrors.filter((e) => !(e.includes('status of 400') && e.includes('entityId=keine+Zahl'))),
      [],
    );
  }));

for (const viewport of [
  { width: 320, height: 640 },
  { width: 1366, height: 900 },
]) {
  test(`axe finds no WCAG 2.2 A/AA violation on the Protokoll at ${viewport.width} px, nor sideways scrolling`, () =>
    withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        await page.goto('/admin/audit');
        await islandsMounted(page);
        await page.getByTestId('audit-entry').first().waitFor();
        assert.deepEqual(await axeViolations(page), [], `Protokoll at ${viewport.width} px`);
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.equal(sideways, 0, `Protokoll at ${viewport.width} px`);
        assert.deepEqual(consoleErrors, []);
      },
      // axe is injected as a script of the test; the portal's CSP allows no inline script.
      { viewport, bypassCSP: true },
    ));
}
