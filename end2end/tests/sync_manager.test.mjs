// The sync manager of the admin contacts screen (spec §2 "Sync manager modal", §4 "Sync log",
// §7 GET /api/syncContactsFromBrevo) in a real browser, against the Brevo-mode portal of
// scripts/e2e.sh and its fake Brevo (AP_E2E_FAKE_BREVO_URL, key AP_E2E_FAKE_BREVO_KEY), into
// which the test puts its own contacts through the fake's API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brevoAccountsFile, logIn } from '../lib/accounts.mjs';
import { brevoBaseUrl, withPage } from '../lib/browser.mjs';
import { eventually } from '../lib/wait.mjs';

const READY = 'Bereit.';
const FROM_BREVO = 'Vom Marketing-Dienst (Brevo) ins Portal';
const TO_BREVO = 'Vom Portal zum Marketing-Dienst';

const runTag = Date.now().toString(36).slice(-5);
/** Customer numbers of this run (700000–799999, apart from the demo data). */
const numberBase = 700000 + (Number.parseInt(runTag, 36) % 90000);

// ---------------------------------------------------------------------------------------------
// The fake Brevo

function fakeBrevo() {
  const url = process.env.AP_E2E_FAKE_BREVO_URL;
  const key = process.env.AP_E2E_FAKE_BREVO_KEY;
  if (!url || !key) {
    throw new Error('AP_E2E_FAKE_BREVO_URL / AP_E2E_FAKE_BREVO_KEY are not set: run the browser tests through scripts/e2e.sh');
  }
  const base = url.replace(/\/+$/, '');
  // The API lives below /v3; the fake's controls (/__fake/…) at the root.
  const api = base.endsWith('/v3') ? base : `${base}/v3`;
  return { api, root: new URL(base).origin, key };
}

async function fakeCall(method, url, body) {
  const { key } = fakeBrevo();
  const response = await fetch(url, {
    method,
    headers: { 'api-key': key, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** A contact in the fake Brevo (POST /v3/contacts). */
function brevoContact(email, attributes, extra = {}) {
  return fakeCall('POST', `${fakeBrevo().api}/contacts`, { email, attributes, listIds: [], ...extra });
}

/** Holds back the fake's next `count` answers by `ms` milliseconds. */
function delayNext(count, ms) {
  return fakeCall('POST', `${fakeBrevo().root}/__fake/delay`, { count, ms });
}

// ---------------------------------------------------------------------------------------------
// Helpers

function signedIn(login, fn) {
  return withPage(
    async (ctx) => {
      await logIn(ctx.page, login, { accountsFile: brevoAccountsFile() });
      await ctx.page.waitForURL('**/user/downloads');
      return fn(ctx);
    },
    { baseURL: brevoBaseUrl() },
  );
}

async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

async function openContacts(page, query = '') {
  const response = await page.goto(`/admin/contacts${query}`);
  assert.equal(response.status(), 200);
  await page.getByTestId('admin-contacts').waitFor();
  await islandsMounted(page);
}

/** Opens the sync manager through the More menu entry of that name. */
async function openSyncManager(page, entry = 'Sync-Manager') {
  await page.getByTestId('more-menu-toggle').click();
  await page.getByTestId('more-menu').getByRole('button', { name: entry }).click();
  const modal = page.getByTestId('sync-manager-modal');
  await modal.waitFor();
  return modal;
}

/** The log's lines without their time, with their kind. */
async function logLines(modal) {
  return modal.getByTestId('sync-log-entry').evaluateAll((lines) =>
    lines.map((line) => ({
      result: line.dataset.result,
      message: line.textContent.replace(/^\[\d\d:\d\d:\d\d\] /, ''),
    })),
  );
}

const rowOf = (page, email) => page.locator(`[data-testid="contact-row"][data-email="${email}"]`);

async function rowEmails(page) {
  await page.locator('[data-testid="contacts-table"][aria-busy="false"]').waitFor();
  return page.getByTestId('contact-row').evaluateAll((trs) => trs.map((tr) => tr.dataset.email));
}

// ---------------------------------------------------------------------------------------------

test('[Brevo] the sync manager takes contacts from Brevo and shows the log as it streams', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const taken = [
      { email: `sync-${runTag}-1@example.de`, number: numberBase + 1, first: 'Sina', last: 'Sync', salutation: '3' },
      { email: `sync-${runTag}-2@example.de`, number: numberBase + 1, first: 'Till', last: 'Sync', salutation: '2' },
      { email: `sync-${runTag}-3@example.de`, number: numberBase + 2, first: 'Zentrale', last: 'Einkauf', salutation: '1' },
    ];
    const blocked = { email: `sync-${runTag}-gesperrt@example.de`, number: numberBase + 3 };
    const withoutNumber = `sync-${runTag}-ohne@example.de`;
    for (const c of taken) {
      await brevoContact(c.email, {
        KUNDENNUMMER: String(c.number),
        FIRMA: `Sync ${runTag} GmbH ${c.number}`,
        FIRSTNAME: c.first,
        LASTNAME: c.last,
        ANREDE: c.salutation,
      });
    }
    await brevoContact(
      blocked.email,
      { KUNDENNUMMER: String(blocked.number), FIRMA: `Sync ${runTag} Gesperrt AG`, FIRSTNAME: 'Bea', LASTNAME: 'Block', ANREDE: '3' },
      { emailBlacklisted: true },
    );
    await brevoContact(withoutNumber, { FIRMA: 'Ohne Nummer GmbH', FIRSTNAME: 'Otto', LASTNAME: 'Ohne' });

    // Not in the portal before the sync.
    await openContacts(page, `?search=${encodeURIComponent(`sync-${runTag}`)}`);
    assert.deepEqual(await rowEmails(page), []);

    // Each new log line, with the time it appeared (to tell live reading from reading at the end).
    await page.evaluate(() => {
      window.apSyncLines = [];
      new MutationObserver(() => {
        const lines = document.querySelectorAll('[data-testid="sync-log-entry"]');
        for (const line of lines) {
          if (line.dataset.seen) continue;
          line.dataset.seen = '1';
          window.apSyncLines.push({ result: line.dataset.result, at: performance.now() });
        }
      }).observe(document.body, { childList: true, subtree: true });
    });

    const modal = await openSyncManager(page);
    assert.equal((await modal.locator('.modal-title').textContent()).trim(), 'Sync-Manager');
    assert.match(await modal.getByTestId('sync-warning').textContent(), /Brevo\) ins Portal/);
    assert.match(await modal.getByTestId('sync-warning').textContent(), /einige Zeit/);
    const log = modal.getByRole('log');
    assert.equal(await log.getAttribute('aria-live'), 'polite');
    assert.deepEqual(await logLines(modal), [{ result: 'info', message: READY }]);

    // The direction: from Brevo chosen, to Brevo not selectable.
    const from = modal.getByLabel(FROM_BREVO);
    const to = modal.getByLabel(TO_BREVO);
    assert.equal(await from.isChecked(), true);
    assert.equal(await from.isEnabled(), true);
    assert.equal(await to.isDisabled(), true);
    assert.equal(await to.isChecked(), false);

    // Brevo answers the sync's first call 3 s late: the start line must show before that.
    await delayNext(1, 3_000);
    const start = modal.getByRole('button', { name: 'Synchronisierung starten' });
    await start.click();
    await modal.locator('[data-testid="sync-log-entry"][data-result="start"]').waitFor({ timeout: 5_000 });
    assert.equal(
      await modal.locator('[data-testid="sync-log-entry"][data-result="done"]').count(),
      0,
      'the start line shows while the sync still waits for Brevo',
    );
    assert.equal(await start.isDisabled(), true, 'no second start while running');

    await modal.locator('[data-testid="sync-log-entry"][data-result="done"]').waitFor({ timeout: 30_000 });
    await eventually(async () => assert.equal(await start.isEnabled(), true));
    const lines = await logLines(modal);
    const kinds = lines.map((l) => l.result);
    assert.ok(kinds.indexOf('start') < kinds.indexOf('done'), `start before done: ${kinds}`);
    assert.ok(kinds.includes('page'), `a page line: ${kinds}`);
    assert.ok(!kinds.includes('error'), `no error: ${JSON.stringify(lines)}`);
    assert.ok(
      lines.some((l) => l.result === 'skipped' && l.message.includes(withoutNumber)),
      `the contact without customer number is reported: ${JSON.stringify(lines)}`,
    );
    const seen = await page.evaluate(() => window.apSyncLines);
    const startAt = seen.find((l) => l.result === 'start')?.at;
    const doneAt = seen.find((l) => l.result === 'done')?.at;
    assert.ok(doneAt - startAt > 2_000, `the start line came ${doneAt - startAt} ms before the done line`);
    // The success toast names the result.
    await page.locator('[data-testid="toast"][data-toast-type="success"]').first().waitFor();

    // "Leeren": back to the ready message.
    await modal.getByRole('button', { name: 'Leeren' }).click();
    assert.deepEqual(await logLines(modal), [{ result: 'info', message: READY }]);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // The contacts are in the portal now, the blocklisted one blocked; the one without number not.
    await openContacts(page, `?search=${encodeURIComponent(`sync-${runTag}`)}`);
    await eventually(async () =>
      assert.deepEqual([...(await rowEmails(page))].sort(), [...taken.map((c) => c.email), blocked.email].sort()),
    );
    assert.equal(await rowOf(page, blocked.email).getByTestId('badge-blocked').count(), 1);
    assert.equal(await rowOf(page, taken[0].email).getByTestId('badge-blocked').count(), 0);
    const first = rowOf(page, taken[0].email);
    assert.equal((await first.locator('td').first().textContent()).trim(), String(taken[0].number));

    const answer = await page.request.get(`/api/contacts/email/${encodeURIComponent(taken[0].email)}`);
    const contact = await answer.json();
    assert.equal(contact.customerNumber, taken[0].number);
    assert.equal(contact.firstname, 'Sina');
    assert.equal(contact.lastname, 'Sync');
    assert.equal(contact.salutation, 3);
    assert.deepEqual(consoleErrors, []);
  }));

test('[Brevo] "Import aus Brevo" opens the sync manager; moderators have neither', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    await openContacts(page);
    const modal = await openSyncManager(page, 'Import aus Brevo');
    assert.deepEqual(await logLines(modal), [{ result: 'info', message: READY }]);
    // The focus is in the modal and stays there.
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      assert.equal(await modal.evaluate((el) => el.contains(document.activeElement)), true, 'Tab stays in the modal');
    }
    await modal.getByRole('button', { name: 'Schließen' }).last().click();
    await modal.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('more-menu-toggle').evaluate((el) => el === document.activeElement), true);
    assert.deepEqual(consoleErrors, []);
  }).then(() =>
    signedIn('moderator', async ({ page }) => {
      await openContacts(page);
      await page.getByTestId('more-menu-toggle').click();
      const labels = (await page.getByTestId('more-menu').locator('.dropdown-item').allTextContents()).map((t) => t.trim());
      assert.deepEqual(labels, ['Double-Opt-In an alle ausstehenden Kontakte senden', 'Import aus der Planung']);
      const sync = await page.request.get('/api/syncContactsFromBrevo');
      assert.equal(sync.status(), 403);
    }),
  ));
