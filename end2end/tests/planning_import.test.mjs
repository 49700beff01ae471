// "Import aus der Planung" on the admin contacts screen (More menu; Admin, BU-Moderator) in a
// real browser, against the local-mode portal of scripts/e2e.sh, which is connected to the fake
// planning system (end2end/lib/fake_planning.mjs): the status, the CSV upload with preview and
// import, and the contact editor of an imported customer number showing the candidates.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { withPage } from '../lib/browser.mjs';
import { expectToast } from '../lib/toasts.mjs';
import { eventually } from '../lib/wait.mjs';

const HEADER = 'Kundennummer;Firma;Anrede;Vorname;Nachname;E-Mail';

const runTag = Date.now().toString(36).slice(-5);
/** Customer numbers of this run (800000–889999, apart from the demo data and the sync test). */
const numberBase = 800000 + (Number.parseInt(runTag, 36) % 90000);

const tempDir = mkdtempSync(join(tmpdir(), 'ap-e2e-planning-'));
after(() => rmSync(tempDir, { recursive: true, force: true }));

/** Writes a CSV file (UTF-8, or Windows-1252 for `latin1`) and answers its path. */
function csvFile(name, lines, encoding = 'utf8') {
  const path = join(tempDir, name);
  writeFileSync(path, Buffer.from(`${lines.join('\r\n')}\r\n`, encoding));
  return path;
}

function signedIn(login, fn) {
  return withPage(async (ctx) => {
    await logIn(ctx.page, login);
    await ctx.page.waitForURL('**/user/downloads');
    return fn(ctx);
  });
}

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

/** /admin/contacts, More menu, "Import aus der Planung"; answers the modal with its status loaded. */
async function openPlanningImport(page) {
  const response = await page.goto('/admin/contacts');
  assert.equal(response.status(), 200);
  await page.getByTestId('admin-contacts').waitFor();
  await islandsMounted(page);
  await page.getByTestId('more-menu-toggle').click();
  await page.getByTestId('more-menu').getByRole('button', { name: 'Import aus der Planung' }).click();
  const modal = page.getByTestId('planning-import-modal');
  await modal.waitFor();
  await modal.getByTestId('planning-csv-candidates').waitFor();
  return modal;
}

async function csvCandidates(modal) {
  const text = (await modal.getByTestId('planning-csv-candidates').textContent()).trim();
  const match = text.match(/^Kandidaten aus CSV-Dateien: ([\d.]+)$/);
  assert.ok(match, `unexpected status text: ${text}`);
  return Number(match[1].replace(/\./g, ''));
}

// ---------------------------------------------------------------------------------------------

test('[lokal] a CSV file is previewed, imported, and its contacts show in the contact editor', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const [first, second] = [numberBase + 1, numberBase + 2];
    const emails = [`csv-${runTag}-1@example.de`, `csv-${runTag}-2@example.de`, `csv-${runTag}-3@example.de`];
    // Windows-1252, as spreadsheet programs write it: the umlauts must come through.
    const path = csvFile(
      'kontakte.csv',
      [
        HEADER,
        `${first};Müller & Söhne GmbH;Herr;Jürgen;Müller;${emails[0]}`,
        `${first};Müller & Söhne GmbH;Frau;Käthe;Müller;${emails[1]}`,
        `${second};Großhandel ${runTag} KG;Firma;Zentrale;Einkauf;${emails[2]}`,
      ],
      'latin1',
    );

    const modal = await openPlanningImport(page);
    assert.equal((await modal.locator('.modal-title').textContent()).trim(), 'Import aus der Planung');
    assert.equal(await modal.getByTestId('planning-service').getAttribute('data-connected'), 'true');
    const before = await csvCandidates(modal);
    assert.match(await modal.textContent(), new RegExp(HEADER));
    const importButton = modal.getByRole('button', { name: 'Importieren' });
    assert.equal(await importButton.isDisabled(), true, 'nothing to import before a file is chosen');

    await modal.getByLabel('CSV-Datei', { exact: true }).setInputFiles(path);
    const table = modal.getByTestId('csv-preview-table');
    await table.waitFor();
    assert.deepEqual(
      (await table.locator('thead th').allTextContents()).map((t) => t.trim()),
      ['Zeile', 'Kundennummer', 'Firma', 'Anrede', 'Vorname', 'Nachname', 'E-Mail'],
    );
    const rows = await table
      .getByTestId('csv-preview-row')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    assert.deepEqual(rows, [
      ['2', String(first), 'Müller & Söhne GmbH', 'Herr', 'Jürgen', 'Müller', emails[0]],
      ['3', String(first), 'Müller & Söhne GmbH', 'Frau', 'Käthe', 'Müller', emails[1]],
      ['4', String(second), `Großhandel ${runTag} KG`, 'Firma', 'Zentrale', 'Einkauf', emails[2]],
    ]);
    assert.equal((await modal.getByTestId('csv-summary').textContent()).trim(), 'Gültig: 3 Kontakte von 2 Firmen.');
    assert.equal(await modal.getByTestId('csv-errors').count(), 0);

    await importButton.click();
    await expectToast(page, 'success', '3 Kontakte von 2 Firmen importiert.');
    await modal.getByTestId('csv-preview').waitFor({ state: 'detached' });
    await eventually(async () => assert.equal(await csvCandidates(modal), before + 3));

    // The editor of the first customer number, opened from the modal, lists the two candidates.
    await modal.getByLabel('Kundennummer', { exact: true }).fill(String(first));
    await modal.getByRole('button', { name: 'Im Kontakt-Editor öffnen' }).click();
    await page.waitForURL(`**/admin/contact/edit/${first}`);
    await islandsMounted(page);
    await page.getByText(emails[0]).first().waitFor({ timeout: 10_000 });
    await page.getByText(emails[1]).first().waitFor();
    assert.equal(await page.getByText(emails[2]).count(), 0, 'the other customer’s candidate is not shown');
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] a broken CSV file shows its errors per line and cannot be imported (moderator)', () =>
  signedIn('moderator', async ({ page, consoleErrors }) => {
    const path = csvFile('kaputt.csv', [
      HEADER,
      `${numberBase + 5};Gute Firma;Herr;Gustav;Gut;csv-${runTag}-gut@example.de`,
      `${numberBase + 5};Gute Firma;Herr;Bernd;Böse;keine-mail`,
      `;Ohne Nummer GmbH;Frau;Olga;Ohne;csv-${runTag}-ohne@example.de`,
    ]);
    const requests = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/planning/csv/import')) requests.push(request.url());
    });

    const modal = await openPlanningImport(page);
    await modal.getByLabel('CSV-Datei', { exact: true }).setInputFiles(path);
    const errors = modal.getByTestId('csv-errors');
    await errors.waitFor();
    const lines = (await errors.getByTestId('csv-error').allTextContents()).map((t) => t.trim());
    assert.equal(lines.length, 2, `two bad lines: ${lines}`);
    assert.match(lines[0], /^Zeile 3: .+/);
    assert.match(lines[1], /^Zeile 4: .+/);
    assert.match(await errors.textContent(), /2 Zeilen sind fehlerhaft/);
    assert.equal(
      (await modal.getByTestId('csv-summary').textContent()).trim(),
      'Gültig: 1 Kontakt von 1 Firma, fehlerhaft: 2 Zeilen.',
    );
    assert.equal(await modal.getByRole('button', { name: 'Importieren' }).isDisabled(), true);
    assert.deepEqual(requests, []);

    // A customer number that is none is refused before the editor opens.
    await modal.getByLabel('Kundennummer', { exact: true }).fill('12ab');
    await modal.getByLabel('Kundennummer', { exact: true }).press('Enter');
    await modal.getByText('Bitte eine Kundennummer eingeben (nur Ziffern).').waitFor();
    assert.match(page.url(), /\/admin\/contacts$/);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    assert.deepEqual(consoleErrors, []);
  }));
