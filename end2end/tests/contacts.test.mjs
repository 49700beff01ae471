// The admin contacts screen (spec §2 "Admin contacts", §4, §7 "Contacts") and the double opt-in
// page (spec §2 "Double opt-in page") in a real browser, against the local-mode portal of
// scripts/e2e.sh, which writes its mails as .eml files to AP_E2E_OUTBOX.
//
// Every test is independent: it signs in itself and changes only contacts it created through
// the API. Of the demo data it reads the 8 contacts under customer numbers 100001–100003
// (pending: sabine.mueller, petra.weber-klein; blocked: juergen.schneider) and the list
// "Ökostrom Neukunden" of "Energie Plus".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { withPage } from '../lib/browser.mjs';

// ---------------------------------------------------------------------------------------------
// Texts of the spec

const UPDATED = (email) => `${email} wurde erfolgreich aktualisiert.`;
const REMOVED = 'Erfolgreich entfernt';
const SENT = (email) => `Double-Opt-In an ${email} gesendet.`;
const ONLY_IN_PRODUCTION = 'Diese Funktion ist aus sicherheitsgründen nur in der Produktiv-Version verfügbar!';
const VERIFIED = 'Ihre E-Mail-Adresse wurde erfolgreich bestätigt.';
const FAILED = 'Die E-Mail konnte nicht bestätigt werden oder gefunden werden!';
const COUNTDOWN = /^Sie werden in (\d+) Sekunden zum Portal weitergeleitet\.$/;
const CONFIRM_BUTTON = 'E-Mail-Adresse jetzt bestätigen';

const WEBER_CONTACTS = ['alex.weber@example.de', 'lukas.becker@example.de', 'petra.weber-klein@example.de'];
const BLOCKED_DEMO = 'juergen.schneider@example.de';

// ---------------------------------------------------------------------------------------------
// Helpers

const runTag = Date.now().toString(36).slice(-5);
let counter = 0;

/** Runs `fn` on a fresh page signed in as `login`. */
function signedIn(login, fn) {
  return withPage(async (ctx) => {
    await logIn(ctx.page, login);
    await ctx.page.waitForURL('**/user/downloads');
    return fn(ctx);
  });
}

/** Calls the portal's API with the page's session cookie; answers the parsed JSON. */
async function api(page, method, path, data) {
  const origin = new URL(page.url()).origin;
  const headers = method === 'GET' ? {} : { Origin: origin };
  const response = await page.request.fetch(path, { method, data, headers, failOnStatusCode: false });
  const text = await response.text();
  assert.ok(response.ok(), `${method} ${path} answered ${response.status()}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** A new pending contact of this run, made through the API (spec §7 POST /api/contacts). */
async function createContact(page) {
  counter += 1;
  const email = `e2e-kontakt-${runTag}-${counter}@example.de`;
  const created = await api(page, 'POST', '/api/contacts', {
    customerNumber: 300000 + (Number.parseInt(runTag, 36) % 600000) + counter,
    companyName: 'E2E Prüfkontakte GmbH',
    email,
    salutation: 3,
    firstname: 'Erika',
    lastname: `Prüffrau ${counter}`,
    listsIds: [],
  });
  assert.equal(created.email, email);
  assert.equal(created.doubleOptIn, false);
  return created;
}

/** The contact with that email as the API sees it ({} when there is none). */
function contactByEmail(page, email) {
  return api(page, 'GET', `/api/contacts/email/${encodeURIComponent(email)}`);
}

/** Waits until every island of the page has mounted. */
async function islandsMounted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-island-state') === 'mounted'),
  );
}

/** Opens /admin/contacts (with an optional query) and waits for the table. */
async function openContacts(page, query = '') {
  const response = await page.goto(`/admin/contacts${query}`);
  assert.equal(response.status(), 200);
  await page.getByTestId('admin-contacts').waitFor();
  await islandsMounted(page);
}

const table = (page) => page.getByTestId('contacts-table');
const rows = (page) => page.getByTestId('contact-row');
const rowOf = (page, email) => page.locator(`[data-testid="contact-row"][data-email="${email}"]`);

/** The emails of the table, top to bottom, once it is not loading. */
async function rowEmails(page) {
  await page.locator('[data-testid="contacts-table"][aria-busy="false"]').waitFor();
  return rows(page).evaluateAll((trs) => trs.map((tr) => tr.dataset.email));
}

async function expectRowEmails(page, expected) {
  await eventually(async () => assert.deepEqual(await rowEmails(page), expected));
}

async function loadedTotal(page) {
  return (await page.getByTestId('loaded-total').textContent()).trim();
}

/** Opens a row's action menu and answers it. */
async function openRowMenu(page, email) {
  const row = rowOf(page, email);
  await row.getByTestId('row-actions').click();
  const menu = row.getByTestId('row-menu');
  await menu.waitFor();
  return menu;
}

async function rowMenuLabels(page, email) {
  const menu = await openRowMenu(page, email);
  const labels = (await menu.locator('.dropdown-item').allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return labels;
}

/** The emails of one page of GET /api/contacts with that query. */
async function apiEmails(page, query) {
  return (await api(page, 'GET', `/api/contacts?limit=20&offset=0&${query}`)).content.map((c) => c.email);
}

// ---------------------------------------------------------------------------------------------
// Mails of the outbox

function outboxDir() {
  const dir = process.env.AP_E2E_OUTBOX;
  if (!dir) throw new Error('AP_E2E_OUTBOX is not set: run the browser tests through scripts/e2e.sh');
  return dir;
}

// Python's email package decodes the MIME parts (multipart/alternative, quoted-printable).
const DECODE_MAIL = `
import email, email.policy, json, sys
out = []
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        m = email.message_from_binary_file(f, policy=email.policy.default)
    parts = {}
    for part in m.walk():
        if part.get_content_maintype() == 'text':
            parts[part.get_content_subtype()] = part.get_content()
    out.append({'path': path, 'to': str(m['To'] or ''), 'subject': str(m['Subject'] or ''),
                'text': parts.get('plain', ''), 'html': parts.get('html', '')})
print(json.dumps(out))
`;
import { expectToast } from '../lib/toasts.mjs';
import { eventually } from '../lib/wait.mjs';

function readMails(paths) {
  if (paths.length === 0) return [];
  const result = spawnSync('python3', ['-c', DECODE_MAIL, ...paths], { encoding: 'utf8' });
  assert.equal(result.status, 0, `decoding the mails failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** The newest mail of the outbox addressed to `email` (waits for it). */
async function newestMailTo(email) {
  return eventually(
    () => {
      let names = [];
      try {
        names = readdirSync(outboxDir()).filter((name) => name.endsWith('.eml'));
      } catch {
        // The outbox folder appears with the first mail.
      }
      const files = names
        .map((name) => join(outboxDir(), name))
        .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
        .sort((a, b) => b.mtime - a.mtime)
        .map((f) => f.path);
      const mail = readMails(files).find((m) => m.to.toLowerCase().includes(email.toLowerCase()));
      assert.ok(mail, `no mail to ${email} in ${outboxDir()}`);
      return mail;
    },
    { timeout: 10_000, interval: 250 },
  );
}

/** The confirmation link of a double opt-in mail, as a path of the portal. */
function confirmationPath(mail) {
  const match = `${mail.text}\n${mail.html}`.match(/https?:\/\/[^\s"'<>]+\/user\/verify-double-opt-in\/([0-9a-f]{64})/);
  assert.ok(match, `no confirmation link in the mail: ${mail.text}`);
  assert.match(match[0], /^http:\/\/127\.0\.0\.1:\d+\/user\/verify-double-opt-in\/[0-9a-f]{64}$/);
  return new URL(match[0]).pathname;
}

/** Sends the double opt-in mail through the API and answers the link's path. */
async function mailLinkOf(page, email) {
  const answer = await api(page, 'POST', `/api/smtp/email/${encodeURIComponent(email)}`);
  assert.ok(answer.messageId, `no mail sent: ${JSON.stringify(answer)}`);
  return confirmationPath(await newestMailTo(email));
}

// ---------------------------------------------------------------------------------------------
// The table

test('the admin sees the contacts, searches, filters blocked ones and sorts by email', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const total = (await api(page, 'GET', '/api/contacts?limit=1&offset=0')).count;
    assert.ok(total >= 8, `the 8 demo contacts at least, got ${total}`);
    await openContacts(page);
    assert.equal(await page.locator('h1').textContent(), 'Händler');
    assert.deepEqual(
      (await table(page).locator('thead th').allTextContents()).map((t) => t.trim()),
      ['Kundennummer', 'E-Mail', 'Erstellt', 'Geändert', 'Aktionen'],
    );
    const shown = Math.min(20, total);
    assert.equal(await rows(page).count(), shown);
    assert.equal(await loadedTotal(page), `${shown}/${total}`);
    assert.equal(await page.getByTestId('load-more').isDisabled(), shown === total);
    const defaultOrder = await rowEmails(page);
    assert.deepEqual(defaultOrder, await apiEmails(page, 'sort=DESC&sortBy=id'));

    // Dates in German: "05.03.2025, 14:07".
    const created = await rows(page).first().locator('td').nth(2).textContent();
    assert.match(created.trim(), /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);

    // Badges of the demo contacts.
    const sabine = rowOf(page, 'sabine.mueller@example.de');
    if ((await sabine.count()) > 0) {
      assert.equal(await sabine.getByTestId('badge-pending').textContent(), 'DOI ausstehend');
    }

    // Search (debounced): the Weber contacts, also the one of "Weber Energieberatung e.K.".
    await page.getByLabel('Kontakte durchsuchen').fill('weber');
    await expectRowEmails(page, await apiEmails(page, 'search=weber'));
    assert.deepEqual([...(await rowEmails(page))].sort(), WEBER_CONTACTS);
    assert.equal(await loadedTotal(page), '3/3');
    assert.equal(await page.getByTestId('load-more').isDisabled(), true);
    assert.equal(new URL(page.url()).search, '?search=weber');
    assert.equal(await rowOf(page, 'petra.weber-klein@example.de').getByTestId('badge-pending').count(), 1);
    assert.equal(await rowOf(page, 'alex.weber@example.de').getByTestId('badge-pending').count(), 0);

    // A search without hits.
    await page.getByLabel('Kontakte durchsuchen').fill('gibt-es-nicht-xyz');
    await page.getByTestId('contacts-empty').getByText('Kein Eintrag gefunden!', { exact: true }).waitFor();
    assert.equal(await loadedTotal(page), '0/0');

    // Filter "Gesperrt: ja".
    await page.getByLabel('Kontakte durchsuchen').fill('');
    await expectRowEmails(page, defaultOrder);
    await page.getByTestId('filters-toggle').click();
    await page.getByLabel('Gesperrt').selectOption({ label: 'ja' });
    const blocked = await apiEmails(page, 'emailBlacklisted=true');
    assert.ok(blocked.includes(BLOCKED_DEMO));
    await expectRowEmails(page, blocked);
    for (const email of blocked) {
      assert.equal(await rowOf(page, email).getByTestId('badge-blocked').textContent(), 'Gesperrt');
    }
    assert.equal((await page.getByTestId('filter-count').textContent()).trim(), 'aktiv: 1');
    assert.equal(new URL(page.url()).searchParams.get('emailBlacklisted'), 'true');
    await page.getByTestId('filters-reset').click();
    await expectRowEmails(page, defaultOrder);

    // Sorting by email, ascending on the first click.
    const emailHeader = table(page).locator('th').filter({ has: page.getByTestId('sort-email') });
    assert.equal(await emailHeader.getAttribute('aria-sort'), null);
    await page.getByTestId('sort-email').click();
    const ascending = await apiEmails(page, 'sort=ASC&sortBy=email');
    await expectRowEmails(page, ascending);
    assert.deepEqual(ascending, [...ascending].sort());
    assert.notDeepEqual(ascending, defaultOrder);
    assert.equal(await emailHeader.getAttribute('aria-sort'), 'ascending');
    assert.equal(new URL(page.url()).search, '?sortBy=email&sort=ASC');
    await page.getByTestId('sort-email').click();
    await expectRowEmails(page, await apiEmails(page, 'sort=DESC&sortBy=email'));
    assert.equal(await emailHeader.getAttribute('aria-sort'), 'descending');

    // The address keeps the list: a reload shows the same.
    await page.reload();
    await islandsMounted(page);
    assert.equal(await emailHeader.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(consoleErrors, []);
  }));

test('the admin blocks and unblocks a contact', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const { email } = await createContact(page);
    await openContacts(page, `?search=${encodeURIComponent(email)}`);
    await expectRowEmails(page, [email]);
    const row = rowOf(page, email);
    assert.equal(await row.getByTestId('badge-blocked').count(), 0);
    assert.deepEqual(await rowMenuLabels(page, email), [
      'Bearbeiten',
      'Kriterien anzeigen',
      'Verlauf',
      'Double-Opt-In senden',
      'Sperren',
      'Löschen',
    ]);

    await (await openRowMenu(page, email)).getByRole('button', { name: 'Sperren' }).click();
    await expectToast(page, 'success', UPDATED(email));
    await row.getByTestId('badge-blocked').getByText('Gesperrt', { exact: true }).waitFor();
    assert.equal((await contactByEmail(page, email)).emailBlacklisted, true);
    // Blocked: the mail is still offered while unconfirmed (spec §2), but disabled with the
    // reason; the action says "Entsperren".
    assert.deepEqual(await rowMenuLabels(page, email), [
      'Bearbeiten',
      'Kriterien anzeigen',
      'Verlauf',
      'Double-Opt-In senden',
      'Entsperren',
      'Löschen',
    ]);
    {
      const menu = await openRowMenu(page, email);
      const send = menu.getByRole('button', { name: 'Double-Opt-In senden' });
      assert.equal(await send.getAttribute('aria-disabled'), 'true');
      const reasonId = await send.getAttribute('aria-describedby');
      assert.equal((await menu.locator(`[id="${reasonId}"]`).textContent()).trim(), 'Die E-Mail-Adresse ist gesperrt.');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
    }

    await (await openRowMenu(page, email)).getByRole('button', { name: 'Entsperren' }).click();
    await expectToast(page, 'success', UPDATED(email));
    await row.getByTestId('badge-blocked').waitFor({ state: 'detached' });
    assert.equal((await contactByEmail(page, email)).emailBlacklisted, false);
    assert.deepEqual(consoleErrors, []);
  }));

test('the admin deletes a contact after confirming', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const { email } = await createContact(page);
    await openContacts(page);
    // The newest contact comes first (id descending).
    assert.equal((await rowEmails(page))[0], email);
    const [loaded, total] = (await loadedTotal(page)).split('/').map(Number);

    await (await openRowMenu(page, email)).getByRole('button', { name: 'Löschen' }).click();
    const modal = page.getByTestId('delete-modal');
    await modal.waitFor();
    assert.equal((await modal.locator('.modal-body').textContent()).trim(), `Kontakt ${email} wirklich löschen?`);
    // Cancelling keeps it.
    await modal.getByRole('button', { name: 'Abbrechen' }).click();
    await modal.waitFor({ state: 'detached' });
    assert.equal(await rowOf(page, email).count(), 1);

    await (await openRowMenu(page, email)).getByRole('button', { name: 'Löschen' }).click();
    await modal.getByTestId('confirm-delete').click();
    await expectToast(page, 'success', REMOVED);
    await modal.waitFor({ state: 'detached' });
    await rowOf(page, email).waitFor({ state: 'detached' });
    assert.equal(await loadedTotal(page), `${loaded - 1}/${total - 1}`);
    assert.deepEqual(await contactByEmail(page, email), {});
    assert.deepEqual(consoleErrors, []);
  }));

// ---------------------------------------------------------------------------------------------
// Double opt-in

test('a double opt-in mail from the row confirms the address on the page of its link', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const { email } = await createContact(page);
    await openContacts(page, `?search=${encodeURIComponent(email)}`);
    await expectRowEmails(page, [email]);
    assert.equal(await rowOf(page, email).getByTestId('badge-pending').count(), 1);
    await (await openRowMenu(page, email)).getByRole('button', { name: 'Double-Opt-In senden' }).click();
    await expectToast(page, 'success', SENT(email));

    const mail = await newestMailTo(email);
    const link = confirmationPath(mail);

    // Opened by the contact (not signed in): the page confirms by itself.
    await withPage(async ({ page: visitor, consoleErrors: visitorErrors }) => {
      await visitor.goto(link);
      const verified = visitor.getByTestId('double-opt-in-verified');
      await verified.waitFor({ timeout: 10_000 });
      assert.equal((await verified.textContent()).trim(), VERIFIED);
      assert.equal(await visitor.getByRole('link', { name: 'Zu Ihren Downloads' }).getAttribute('href'), '/user/downloads');
      const countdown = visitor.getByTestId('countdown');
      const first = Number((await countdown.textContent()).trim().match(COUNTDOWN)?.[1]);
      assert.ok(first >= 1 && first <= 5, `countdown starts at 5 or just below, got ${first}`);
      await eventually(
        async () => {
          const now = Number((await countdown.textContent()).trim().match(COUNTDOWN)?.[1]);
          assert.ok(now < first, `the countdown goes down from ${first}`);
        },
        { timeout: 3_000 },
      );
      assert.deepEqual(visitorErrors, []);
    });

    assert.equal((await contactByEmail(page, email)).doubleOptIn, true);
    await openContacts(page, `?search=${encodeURIComponent(email)}`);
    await expectRowEmails(page, [email]);
    assert.equal(await rowOf(page, email).getByTestId('badge-pending').count(), 0);
    assert.ok(!(await rowMenuLabels(page, email)).includes('Double-Opt-In senden'));
    assert.deepEqual(consoleErrors, []);
  }));

test('fetching a link confirms nothing; an unknown link fails; without JavaScript the button confirms', () =>
  signedIn('admin', async ({ page }) => {
    const { email } = await createContact(page);
    const link = await mailLinkOf(page, email);

    // A mail scanner's GET shows the page but confirms nobody.
    const fetched = await page.request.get(link);
    assert.equal(fetched.status(), 200);
    assert.match(await fetched.text(), new RegExp(CONFIRM_BUTTON));
    assert.equal((await contactByEmail(page, email)).doubleOptIn, false);

    // Made-up links.
    await withPage(async ({ page: visitor }) => {
      for (const token of ['0'.repeat(64), 'abc']) {
        const response = await visitor.goto(`/user/verify-double-opt-in/${token}`);
        assert.equal(response.status(), 404);
        assert.equal((await visitor.getByTestId('double-opt-in-failed').textContent()).trim(), FAILED);
        assert.equal(await visitor.getByRole('button', { name: CONFIRM_BUTTON }).count(), 0);
      }
    });
    assert.equal((await contactByEmail(page, email)).doubleOptIn, false);

    // Without JavaScript: the form's button.
    await withPage(
      async ({ page: visitor }) => {
        await visitor.goto(link);
        const button = visitor.getByRole('button', { name: CONFIRM_BUTTON });
        await button.waitFor();
        assert.equal((await contactByEmail(page, email)).doubleOptIn, false, 'not before the click');
        await button.click();
        const verified = visitor.getByTestId('double-opt-in-verified');
        await verified.waitFor({ timeout: 10_000 });
        assert.equal((await verified.textContent()).trim(), VERIFIED);
        // The countdown's text as the server wrote it (the page's meta refresh moves on).
        await visitor.getByText(COUNTDOWN).waitFor();
      },
      { javaScriptEnabled: false },
    );
    assert.equal((await contactByEmail(page, email)).doubleOptIn, true);

    // The mail again: the contact has confirmed already.
    const again = await api(page, 'POST', `/api/smtp/email/${encodeURIComponent(email)}`);
    assert.equal(again.code, 'DOUBLE_OPT-IN_ALREADY_DONE');
  }));

test('the mail to all pending contacts is only available in production', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    await openContacts(page);
    await page.getByTestId('more-menu-toggle').click();
    const menu = page.getByTestId('more-menu');
    assert.deepEqual(
      (await menu.locator('.dropdown-item').allTextContents()).map((t) => t.trim()),
      ['Double-Opt-In an alle ausstehenden Kontakte senden', 'Sync-Manager', 'Import aus der Planung', 'Import aus Brevo'],
    );
    await menu.getByRole('button', { name: 'Double-Opt-In an alle ausstehenden Kontakte senden' }).click();
    const modal = page.getByTestId('send-all-modal');
    await modal.waitFor();
    assert.match(await modal.textContent(), /geht an \d+ von \d+ Kontakten/);
    await modal.getByTestId('confirm-send-all').click();
    await expectToast(page, 'warning', ONLY_IN_PRODUCTION);
    await modal.waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('mail-job-progress').count(), 0);

    // The sync manager: without Brevo (local mode) there is nothing to sync, the log says why.
    await page.getByTestId('more-menu-toggle').click();
    await menu.getByRole('button', { name: 'Sync-Manager' }).click();
    const sync = page.getByTestId('sync-manager-modal');
    await sync.waitFor();
    assert.equal((await sync.getByTestId('sync-log-entry').textContent()).replace(/^\[[\d:]+\] /, ''), 'Bereit.');
    await sync.getByRole('button', { name: 'Synchronisierung starten' }).click();
    const refused = sync.locator('[data-testid="sync-log-entry"][data-result="error"]');
    await refused.waitFor();
    const reason = (await refused.textContent()).replace(/^\[[\d:]+\] /, '');
    assert.match(reason, /Marketing-Dienst|Brevo/);
    await expectToast(page, 'warning', reason);
    await page.keyboard.press('Escape');
    await sync.waitFor({ state: 'detached' });
    // Chromium reports the 409 of the refused start.
    assert.deepEqual(consoleErrors.filter((e) => !e.includes('status of 409')), []);
  }));

// ---------------------------------------------------------------------------------------------
// The provider screen's "show contacts"

test('the contacts of one list, with a chip that removes the filter', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const providers = await api(page, 'GET', '/api/providers/?limit=100&offset=0');
    const provider = providers.content.find((p) => p.name === 'Energie Plus');
    assert.ok(provider, 'the demo provider "Energie Plus"');
    const lists = await api(
      page,
      'GET',
      `/api/providers/${provider.id}/lists/?limit=100&offset=0&sort=DESC&activeStatus=true&inactiveStatus=true&search=`,
    );
    const list = lists.content.find((l) => l.name === 'Ökostrom Neukunden');
    assert.ok(list, 'the demo list "Ökostrom Neukunden"');
    const members = await apiEmails(page, `liste=${list.id}`);
    for (const email of ['anna.schneider@example.de', 'juergen.schneider@example.de', 'alex.weber@example.de']) {
      assert.ok(members.includes(email), `${email} is on the list`);
    }

    await openContacts(page, `?liste=${list.id}`);
    const chip = page.getByTestId('list-chip');
    assert.equal((await chip.textContent()).trim(), 'Kriterium: Ökostrom Neukunden (Energie Plus)');
    await expectRowEmails(page, members);
    assert.equal(await loadedTotal(page), `${members.length}/${members.length}`);

    // The contact's criteria side panel names the list under its provider.
    await (await openRowMenu(page, 'alex.weber@example.de')).getByRole('button', { name: 'Kriterien anzeigen' }).click();
    const panel = page.getByTestId('criteria-panel');
    const group = panel.getByTestId('criteria-group').filter({ has: page.getByRole('heading', { name: 'Energie Plus' }) });
    await group.getByText('Ökostrom Neukunden', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Schließen' }).last().click();
    await panel.waitFor({ state: 'detached' });

    await chip.getByRole('button', { name: 'Kriterium-Filter entfernen' }).click();
    await chip.waitFor({ state: 'detached' });
    await expectRowEmails(page, await apiEmails(page, 'sort=DESC&sortBy=id'));
    assert.equal(new URL(page.url()).search, '');
    assert.deepEqual(consoleErrors, []);
  }));

// ---------------------------------------------------------------------------------------------
// The moderator, by keyboard

test('the moderator works the screen by keyboard; Escape closes the modals', () =>
  signedIn('moderator', async ({ page, consoleErrors }) => {
    await openContacts(page);
    assert.ok((await rows(page).count()) > 0);
    const firstEmail = (await rowEmails(page))[0];
    const toggle = rowOf(page, firstEmail).getByTestId('row-actions');

    // No sync manager for moderators.
    await page.getByTestId('more-menu-toggle').click();
    assert.equal(await page.getByTestId('more-menu').getByRole('button', { name: 'Sync-Manager' }).count(), 0);
    await page.keyboard.press('Escape');
    await page.getByTestId('more-menu').waitFor({ state: 'detached' });

    // From the search field, Tab reaches the first row's actions.
    await page.getByLabel('Kontakte durchsuchen').focus();
    let reached = false;
    for (let i = 0; i < 30 && !reached; i += 1) {
      await page.keyboard.press('Tab');
      reached = await toggle.evaluate((el) => el === document.activeElement);
    }
    assert.ok(reached, 'Tab reaches the row actions');

    // Enter opens the menu, the arrow keys move through it, Enter runs the item.
    await page.keyboard.press('Enter');
    const menu = rowOf(page, firstEmail).getByTestId('row-menu');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Kriterien anzeigen');
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('criteria-panel');
    await panel.waitFor();
    await page.locator('[data-testid="criteria-panel"] .spinner-border').waitFor({ state: 'detached' });
    const inside = () => panel.evaluate((el) => el.contains(document.activeElement));
    assert.equal(await inside(), true, 'the focus moves into the panel');
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      assert.equal(await inside(), true, 'Tab stays in the panel');
    }
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    assert.equal(await toggle.evaluate((el) => el === document.activeElement), true, 'the focus returns to the menu');

    // The delete question: reached by End, closed by Escape, nothing deleted.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Löschen');
    await page.keyboard.press('Enter');
    const modal = page.getByTestId('delete-modal');
    await modal.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Abbrechen');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    assert.equal(await rowOf(page, firstEmail).count(), 1);
    assert.equal(await toggle.evaluate((el) => el === document.activeElement), true);

    // Escape also closes the menu itself.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.deepEqual(consoleErrors, []);
  }));
