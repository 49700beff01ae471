// The announcement by email of a package (issue 37) in a real browser against the local-mode
// portal of scripts/e2e.sh, at a phone's width and on a desktop: the form's section with its
// count, the preview (axe's WCAG 2.2 A/AA rules with it open), the test mail into the outbox
// (AP_E2E_OUTBOX), and saving it with the package; and the unsubscribe page of an unknown link.
//
// Each test makes and removes its own package (its name carries a run tag).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { axeViolations } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';
import { expectToast } from '../lib/toasts.mjs';
import { eventually } from '../lib/wait.mjs';

const runTag = Date.now().toString(36).slice(-4);

/** Calls the API with the page's session; answers the parsed JSON. */
async function api(page, method, path, data) {
  const response = await page.request.fetch(path, { method, data, failOnStatusCode: false });
  const text = await response.text();
  assert.ok(response.ok(), `${method} ${path} answered ${response.status()}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

/** No element of the page reaches beyond the window's width (no text cut off or scrolled away). */
async function fitsTheWidth(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what}: ${overflow} px wider than the window`);
}

/** The subjects of the outbox's mails to `email` (Python's email package decodes them). */
function outboxSubjectsTo(email) {
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
import email, email.policy, json, sys
out = []
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        m = email.message_from_binary_file(f, policy=email.policy.default)
    out.append({'to': str(m['To'] or ''), 'subject': str(m['Subject'] or '')})
print(json.dumps(out))
`;
  const result = spawnSync('python3', ['-c', script, ...names.map((n) => join(dir, n))], { encoding: 'utf8' });
  assert.equal(result.status, 0, `decoding the mails failed: ${result.stderr}`);
  return JSON.parse(result.stdout)
    .filter((m) => m.to.toLowerCase().includes(email.toLowerCase()))
    .map((m) => m.subject);
}

/** A package of the first demo provider on its first list, starting in 30 days; its id. */
async function packageOnAList(page, name) {
  const provider = (await api(page, 'GET', '/api/providers/?limit=1&offset=0')).content[0];
  const list = (await api(page, 'GET', `/api/providers/${provider.id}/lists/?limit=1&offset=0`)).content[0];
  assert.ok(provider && list, 'demo data: a provider with a list');
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const created = await api(page, 'POST', '/api/download/', {
    name,
    startAt: day(30),
    endAt: day(60),
    ProviderId: provider.id,
    listsIds: [list.id],
    uploadsToInsert: [],
  });
  return created.id;
}

for (const viewport of [
  { width: 360, height: 800 },
  { width: 1366, height: 900 },
]) {
  test(`an admin writes an announcement, previews it, mails it to themselves and saves it at ${viewport.width} px`, () =>
    withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        const name = `Ankündigung ${runTag} ${viewport.width}`;
        const id = await packageOnAList(page, name);
        try {
          await page.goto(`/admin/download/edit/${id}`);
          await islandsMounted(page);
          const section = page.getByTestId('announcement-section');
          await section.scrollIntoViewIfNeeded();
          // Not saved yet: switched off, the template, and how many it would reach.
          assert.equal(await page.getByLabel('Bei Start ankündigen').isChecked(), false);
          await eventually(async () =>
            assert.match(await page.getByTestId('announcement-recipients').innerText(), /wird an [\d.]+ Kontakte? gesendet/),
          );
          await page.getByLabel('Bei Start ankündigen').check();
          await page.getByLabel('Betreff').fill(`Neu: {Paket} (${runTag})`);
          await fitsTheWidth(page, 'the form with the section');
          assert.deepEqual(await axeViolations(page), [], `the form at ${viewport.width} px`);

          await page.getByTestId('announcement-preview').click();
          const preview = page.getByTestId('announcement-preview-modal');
          await preview.waitFor();
          assert.match(await preview.innerText(), new RegExp(`Neu: ${name} \\(${runTag}\\)`));
          assert.deepEqual(await axeViolations(page), [], `the preview at ${viewport.width} px`);
          await page.keyboard.press('Escape');
          await preview.waitFor({ state: 'detached' });

          await page.getByTestId('announcement-test-mail').click();
          const toast = page.locator('[data-testid="toast"][data-toast-type="success"]').first();
          await toast.waitFor();
          const sentTo = (await toast.innerText()).match(/Testmail an (\S+) gesendet\./)?.[1];
          assert.ok(sentTo, await toast.innerText());
          await eventually(() => assert.ok(outboxSubjectsTo(sentTo).includes(`Neu: ${name} (${runTag})`)), {
            timeout: 10_000,
            interval: 250,
          });

          await page.getByTestId('submit').click();
          await expectToast(page, 'success', 'Erfolgreich aktualisiert');
          await eventually(async () => {
            const saved = await api(page, 'GET', `/api/download/${id}/announcement`);
            assert.equal(saved.saved, true);
            assert.equal(saved.announce, true);
            assert.equal(saved.subject, `Neu: {Paket} (${runTag})`);
          });
          assert.deepEqual(consoleErrors, []);
        } finally {
          await api(page, 'DELETE', `/api/download/${id}`);
        }
      },
      { viewport, bypassCSP: true },
    ));

  test(`the preview shows the mail with its styles under the portal's own policy at ${viewport.width} px`, () =>
    withPage(
      async ({ page, consoleErrors }) => {
        await logIn(page, 'admin');
        await page.waitForURL('**/user/downloads');
        const name = `Vorschau ${runTag} ${viewport.width}`;
        const id = await packageOnAList(page, name);
        try {
          await page.goto(`/admin/download/edit/${id}`);
          await islandsMounted(page);
          await page.getByTestId('announcement-preview').click();
          await page.getByTestId('announcement-preview-modal').waitFor();
          const mail = page.frameLocator('iframe.ap-mail-preview');
          await mail.getByText(name).first().waitFor();
          // The button "Zum Paket" keeps its colours: the mail's inline styles apply.
          const button = mail.getByRole('link', { name: 'Zum Paket' });
          const background = await button.evaluate((a) => getComputedStyle(a).backgroundColor);
          assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'the button is drawn as in the mail');
          assert.deepEqual(consoleErrors, [], 'no policy refused anything');
        } finally {
          await api(page, 'DELETE', `/api/download/${id}`);
        }
      },
      { viewport },
    ));

  test(`the unsubscribe page of an unknown link says so, accessibly, at ${viewport.width} px`, () =>
    withPage(
      async ({ page }) => {
        const response = await page.goto(`/abmelden/${'0'.repeat(64)}`);
        assert.equal(response.status(), 404);
        assert.match(await page.getByTestId('unsubscribe-unknown').innerText(), /Abmeldelink ist ungültig/);
        await fitsTheWidth(page, 'the unsubscribe page');
        assert.deepEqual(await axeViolations(page), [], `the unsubscribe page at ${viewport.width} px`);
      },
      { viewport, bypassCSP: true },
    ));
}
