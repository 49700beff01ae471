// The customer page as a dealer uses it: the packages released for the dealer's customer
// number, single files and whole packages downloaded with their real names.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { withPage } from '../lib/browser.mjs';

test('a dealer sees the demo packages of its lists and downloads a file and a package ZIP', () =>
  withPage(async ({ page, consoleErrors }) => {
    await logIn(page, 'haendler');
    await page.waitForURL('**/user/downloads');
    const rows = page.locator('table.ap-downloads-table tbody tr');
    assert.ok((await rows.count()) >= 3, 'the demo dealer sees several packages');
    const table = await page.locator('table.ap-downloads-table').textContent();
    assert.match(table, /Glasfaser-Sommeraktion Privatkunden/);
    assert.doesNotMatch(table, /Energie Plus Ökostrom/, 'a package of lists the dealer is not on');
    assert.match(await page.getByTestId('loaded-total').textContent(), /^\d+\/\d+$/);

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Flyer Glasfaser Sommeraktion.pdf herunterladen' }).click(),
    ]);
    assert.equal(file.suggestedFilename(), 'Flyer Glasfaser Sommeraktion.pdf');
    const pdf = await readFile(await file.path());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');

    const row = rows.filter({ hasText: 'Glasfaser-Sommeraktion Privatkunden' });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Alle Dateien als ZIP' }).click(),
    ]);
    assert.match(zip.suggestedFilename(), /^\d{4}-\d{2}-\d{2}_E2E Aktionsportal\.zip$/);
    const archive = await readFile(await zip.path());
    assert.equal(archive.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');
    assert.ok(archive.includes(Buffer.from('Glasfaser-Sommeraktion Privatkunden/Flyer Glasfaser Sommeraktion.pdf')));
    assert.deepEqual(consoleErrors, []);
  }));
