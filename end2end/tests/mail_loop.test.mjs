// The loop a package's mail closes (issue 37), in a real browser against the local-mode portal
// of scripts/e2e.sh: an admin announces a started package on the demo dealer's list; the mail
// lands in the outbox (AP_E2E_OUTBOX); the dealer follows its "Zum Paket" link on a phone
// (360 px) to the opened package and downloads a file; the admin list shows how the announcement
// stands (360 and 1,366 px); and the admin sees the download with the channel mail under "E-Mails
// je Paket" on the statistics screen (1,366 px). axe's WCAG 2.2 A/AA rules on every page.
//
// The test makes its own package (its name carries a run tag) and removes it at the end.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { axeViolations } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';
import { eventually } from '../lib/wait.mjs';

const runTag = Date.now().toString(36).slice(-4);
const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';

async function api(page, method, path, data) {
  const response = await page.request.fetch(path, { method, data, failOnStatusCode: false });
  const text = await response.text();
  assert.ok(response.ok(), `${method} ${path} answered ${response.status()}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** The "Zum Paket" links of the outbox's mails whose subject holds `subject` (Python decodes them). */
function packageLinksInOutbox(subject) {
  const dir = process.env.AP_E2E_OUTBOX;
  if (!dir) throw new Error('AP_E2E_OUTBOX is not set: run the browser tests through scripts/e2e.sh');
  let names = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml'));
  } catch {
    // The outbox folder appears with the first mail.
  }
  if (names.length === 0) return [];
  const script = `
import email, email.policy, json, re, sys
wanted = sys.argv[1]
out = []
for path in sys.argv[2:]:
    with open(path, 'rb') as f:
        m = email.message_from_binary_file(f, policy=email.policy.default)
    if wanted not in str(m['Subject'] or ''):
        continue
    text = m.get_body(preferencelist=('plain',)).get_content()
    out += re.findall(r'Zum Paket: (\\S+)', text)
print(json.dumps(out))
`;
  const result = spawnSync('python3', ['-c', script, subject, ...names.map((n) => join(dir, n))], { encoding: 'utf8' });
  assert.equal(result.status, 0, `decoding the mails failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** No element of the page reaches beyond the window's width (no text cut off or scrolled away). */
async function fitsTheWidth(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what}: ${overflow} px wider than the window`);
}

/** A started package on "Glasfaser Privatkunden" (the demo dealer's list) with one file; its id and the file's name. */
async function startedPackage(page, name) {
  const providers = await api(page, 'GET', '/api/providers/?limit=50&offset=0');
  const provider = providers.content.find((p) => p.name === 'Glasfaser Süd');
  const lists = await api(page, 'GET', `/api/providers/${provider.id}/lists/?limit=50&offset=0&activeStatus=true&inactiveStatus=true`);
  const list = lists.content.find((l) => l.name === 'Glasfaser Privatkunden');
  const fileName = `Flyer Mail ${runTag} mit einem langen Namen für schmale Bildschirme.pdf`;
  const uploaded = await page.request.post('/api/upload/', {
    multipart: { 'files[0]': { name: fileName, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\nflyer\n') } },
  });
  assert.ok(uploaded.ok(), await uploaded.text());
  const file = await uploaded.json();
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const created = await api(page, 'POST', '/api/download/', {
    name,
    startAt: day(-1),
    endAt: day(30),
    ProviderId: provider.id,
    listsIds: [list.id],
    uploadsToInsert: [file.id],
  });
  return { id: created.id, fileName };
}

test('an announced package reaches the dealer by mail, opens on its phone, and its download counts as the mail’s', async () => {
  const name = `Mailaktion ${runTag}`;
  let id;
  let fileName;
  await withPage(async ({ page }) => {
    await logIn(page, 'admin');
    await page.waitForURL('**/user/downloads');
    ({ id, fileName } = await startedPackage(page, name));
    await api(page, 'PUT', `/api/download/${id}/announcement`, {
      announce: true,
      subject: `Neu: {Paket}`,
      text: 'Ab sofort im Portal.',
      reminderDays: 3,
      confirmStarted: true,
    });
  });
  try {
    let link;
    await eventually(
      () => {
        link = packageLinksInOutbox(name)[0];
        assert.ok(link, 'a mail of the announcement in the outbox');
      },
      { timeout: 20_000, interval: 250 },
    );
    const url = new URL(link);
    assert.equal(url.pathname, '/user/downloads');
    assert.equal(url.searchParams.get('paket'), String(id));

    await withPage(
      async ({ page, context, consoleErrors }) => {
        await context.addInitScript((key) => window.localStorage.setItem(key, 'e2e'), TOUR_FLAG);
        await logIn(page, 'haendler');
        await page.waitForURL('**/user/downloads');
        await page.goto(`${url.pathname}${url.search}`);
        const opened = page.getByTestId('opened-package');
        await opened.waitFor();
        assert.match(await opened.innerText(), new RegExp(`Paket aus Ihrer E-Mail: ${name}`));
        await fitsTheWidth(page, 'the opened package at 360 px');
        assert.deepEqual(await axeViolations(page), [], 'the customer page with the opened package at 360 px');
        const download = opened.getByRole('link', { name: `${fileName} herunterladen` });
        const href = await download.getAttribute('href');
        // The browser's own request, with the visit's cookie the link set.
        const response = await page.request.get(href);
        assert.equal(response.status(), 200);
        assert.deepEqual(consoleErrors, []);
      },
      { viewport: { width: 360, height: 800 }, bypassCSP: true },
    );

    // The admin list says how the announcement stands, on a phone and on a desktop.
    for (const viewport of [
      { width: 360, height: 800 },
      { width: 1366, height: 900 },
    ]) {
      await withPage(
        async ({ page, consoleErrors }) => {
          await logIn(page, 'admin');
          await page.waitForURL('**/user/downloads');
          await page.goto(`/admin/downloads/?search=${encodeURIComponent(name)}`);
          const status = page.locator(`[data-testid="download-row"][data-download-id="${id}"] [data-testid="row-announcement"]`);
          await status.waitFor();
          assert.match(await status.innerText(), /^Angekündigt am \d\d\.\d\d\.\d{4} an [\d.]+ Kontakte? \([\d.]+ gesendet, 0 fehlgeschlagen/);
          assert.deepEqual(await axeViolations(page), [], `the admin list with the status at ${viewport.width} px`);
          assert.deepEqual(consoleErrors, []);
        },
        { viewport, bypassCSP: true },
      );
    }

    await withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        await eventually(
          async () => {
            const figures = await api(page, 'GET', `/api/statistics/packages/${id}`);
            assert.equal(figures.mails?.mailDownloads, 1, JSON.stringify(figures.mails));
          },
          { timeout: 15_000, interval: 500 },
        );
        await page.goto('/admin/statistics');
        const row = page.locator(`[data-testid="mail-figures-row"][data-package-id="${id}"]`);
        await row.waitFor();
        const cells = await row.getByRole('cell').allInnerTexts();
        assert.equal(cells[0], name);
        assert.equal(cells[4], '1', 'one download through the mail');
        await page.getByTestId('mail-figures').scrollIntoViewIfNeeded();
        assert.deepEqual(await axeViolations(page), [], 'the statistics screen with the mails at 1366 px');
        assert.deepEqual(consoleErrors, []);
      },
      { viewport: { width: 1366, height: 900 }, bypassCSP: true },
    );
  } finally {
    await withPage(async ({ page }) => {
      await logIn(page, 'admin');
      await page.waitForURL('**/user/downloads');
      if (id) await api(page, 'DELETE', `/api/download/${id}`);
    });
  }
});
