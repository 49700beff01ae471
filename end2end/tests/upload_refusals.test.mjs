// Uploads the server refuses (spec §8): "Upload answer 413 → warning with fileName and
// limitSizeMB", "Upload answer 422 → warning with filesOverExtLimit, allowedExtArray,
// fileExtensions". Runs against the Brevo-mode portal of scripts/e2e.sh, which has a limit of
// 1 MB (AP_UPLOAD_LIMIT_MB=1) and the default allowed extensions.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { brevoAccountsFile, logIn } from '../lib/accounts.mjs';
import { brevoBaseUrl, withPage } from '../lib/browser.mjs';
import { makeZip } from '../lib/zip.mjs';
import { expectToast } from '../lib/toasts.mjs';

const LIMIT_MB = 1;
const ALLOWED =
  'pdf, jpg, jpeg, png, gif, webp, mp4, mov, zip, docx, xlsx, pptx, txt, csv, eps, ai, indd, psd';
const TOO_LARGE = `Die Datei Gross.pdf ist zu groß. Erlaubt sind höchstens ${LIMIT_MB} MB.`;

const tempDir = mkdtempSync(join(tmpdir(), 'ap-e2e-refusals-'));
after(() => rmSync(tempDir, { recursive: true, force: true }));

function file(name, bytes) {
  const path = join(tempDir, name);
  writeFileSync(path, bytes);
  return path;
}

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
/** A PDF just over the limit. */
const largePdf = () => file('Gross.pdf', Buffer.concat([PDF, Buffer.alloc(LIMIT_MB * 1024 * 1024 + 10, 0x20)]));

/** The download form of the Brevo-mode portal, signed in as the admin. */
async function openForm(page) {
  await logIn(page, 'admin', { accountsFile: brevoAccountsFile() });
  await page.waitForURL('**/user/downloads');
  await page.goto('/admin/download/add');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

test('a file over the limit is refused before it is sent, with the limit the server reports', () =>
  withPage(
    async ({ page }) => {
      await openForm(page);
      assert.match(await page.getByTestId('upload-requirements').textContent(), /Maximale Dateigröße: 1 MB/);
      const uploads = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/upload')) uploads.push(request.url());
      });
      await page.getByTestId('file-input').setInputFiles(largePdf());
      await expectToast(page, 'error', TOO_LARGE);
      assert.deepEqual(uploads, [], 'nothing is sent');
    },
    { baseURL: brevoBaseUrl() },
  ));

test("an archive holding a program gets the server's 422 as spec §8's warning", () =>
  withPage(
    async ({ page }) => {
      await openForm(page);
      const archive = file(
        'Werkzeuge.zip',
        makeZip([
          { name: 'Flyer.pdf', bytes: PDF },
          { name: 'setup.exe', bytes: Buffer.from('MZ\x90\x00 kein Programm') },
        ]),
      );
      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/upload/');
      await page.getByTestId('file-input').setInputFiles(archive);
      const response = await answer;
      assert.equal(response.status(), 422);
      const body = await response.json();
      assert.deepEqual(body.filesOverExtLimit, ['Werkzeuge.zip/setup.exe']);
      assert.deepEqual(body.fileExtensions, ['exe']);
      assert.equal(body.allowedExtArray.join(', '), ALLOWED);
      await expectToast(
        page,
        'warning',
        `Nicht erlaubter Dateityp: Werkzeuge.zip/setup.exe. Endungen: exe. Erlaubt sind: ${ALLOWED}.`,
      );
      // Nothing of the archive was taken into the package.
      assert.equal(await page.getByText('Flyer.pdf', { exact: true }).count(), 0);
    },
    { baseURL: brevoBaseUrl() },
  ));

test("a form opened under a larger limit gets the server's 413 as spec §8's warning", () =>
  withPage(
    async ({ page }) => {
      // The form was served while the limit was larger (before the operator lowered it, or by
      // another instance during a rolling change): its own check lets the file through, so
      // the server's answer is what the user sees.
      await page.route('**/admin/download/add', async (route) => {
        const response = await route.fetch();
        const html = (await response.text())
          .replaceAll('&quot;limitSizeMB&quot;:1,', '&quot;limitSizeMB&quot;:2048,')
          .replaceAll('"limitSizeMB":1,', '"limitSizeMB":2048,');
        await route.fulfill({ response, body: html });
      });
      await openForm(page);
      assert.match(await page.getByTestId('upload-requirements').textContent(), /Maximale Dateigröße: 2048 MB/);
      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/upload/');
      await page.getByTestId('file-input').setInputFiles(largePdf());
      const response = await answer;
      assert.equal(response.status(), 413);
      const body = await response.json();
      assert.deepEqual([body.fileName, body.limitSizeMB], ['Gross.pdf', LIMIT_MB]);
      await expectToast(page, 'warning', TOO_LARGE);
      assert.equal(await page.getByText('Gross.pdf', { exact: true }).count(), 0, 'no entry is left');
    },
    { baseURL: brevoBaseUrl() },
  ));
