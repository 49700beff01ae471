// The contact editor (spec §2 "Contact edit", §3 "Customer group", §4 "Contact editing",
// §5 "Contact edit", §6) in a real browser, against both portals of scripts/e2e.sh: the
// local-mode portal, connected to the fake planning system (end2end/lib/fake_planning.mjs:
// customers 400001 and 400002 have candidates, other numbers are unknown to it), and the
// Brevo-mode portal, which has no planning system.
//
// Of the demo data the tests read the groups 100001 (Thomas and Sabine Müller, Vertrieb),
// 100002 and 100003 (alex.weber@example.de) and the list "Privatkunden Strom Nord"; they save
// only the groups 400001 and 400002 of the fake planning system and groups they make themselves.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { brevoAccountsFile, logIn } from '../lib/accounts.mjs';
import { brevoBaseUrl, withPage } from '../lib/browser.mjs';
import { expectToast } from '../lib/toasts.mjs';
import { eventually } from '../lib/wait.mjs';

// ---------------------------------------------------------------------------------------------
// Texts of the spec

const CREATED = 'Erfolgreich angelegt';
const UPDATED = 'Erfolgreich aktualisiert';
const DUPLICATE = 'E-Mail doppelt vorhanden!';
const CRITERION_REQUIRED =
  'Es muss mindestens ein Kriterium ausgewählt werden.';
const TAKEN = (email, number) => `Die E-Mail ${email} ist bereits unter der Kundennummer ${number} registriert.`;
const NO_PLANNING = /kein Planungssystem angebunden/;

// ---------------------------------------------------------------------------------------------
// Helpers

const runTag = Date.now().toString(36).slice(-5);
/** Runs `fn` on a fresh page of the local portal (or `contextOptions`' one), signed in as `login`. */
function signedIn(login, fn, { accountsFile, contextOptions = {} } = {}) {
  return withPage(async (ctx) => {
    await logIn(ctx.page, login, { accountsFile });
    // Staff without the customer roles (BU-DOI) do not land on the downloads page.
    await ctx.page.waitForURL((url) => !url.pathname.startsWith('/api/auth/login') && url.pathname !== '/login');
    return fn(ctx);
  }, contextOptions);
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

/** Counts the page's requests that `match` (method, URL). */
function countRequests(page, match) {
  const seen = [];
  page.on('request', (request) => {
    if (match(request.method(), new URL(request.url()))) seen.push(request.url());
  });
  return seen;
}

const isSave = (method, url) => method === 'PUT' && url.pathname.startsWith('/api/contacts/customer-number/');
const isEmailCheck = (method, url) => method === 'GET' && url.pathname.startsWith('/api/contacts/email/');

/** Opens the editor of `number` and waits until the group has loaded. */
async function openEditor(page, number) {
  const response = await page.goto(`/admin/contact/edit/${number}`);
  assert.equal(response.status(), 200);
  const editor = page.getByTestId('contact-editor');
  await page.locator('[data-testid="contact-editor"][data-loaded="true"]').waitFor({ timeout: 10_000 });
  return editor;
}

const activeEmails = (page) =>
  page.getByTestId('active-contact').evaluateAll((rows) => rows.map((row) => row.dataset.email));
const candidateEmails = (page) =>
  page.getByTestId('candidate').evaluateAll((rows) => rows.map((row) => row.dataset.email));
const newRows = (page) => page.getByTestId('new-contact');

/** Adds an empty new contact and fills it. */
async function addContact(page, { salutation = 'Frau', firstname, lastname, email }) {
  const index = await newRows(page).count();
  await page.getByRole('button', { name: 'Kontakt hinzufügen' }).click();
  // A fixed row (`last()` would move on to a row added later).
  const row = newRows(page).nth(index);
  await row.getByLabel('Anrede').selectOption({ label: salutation });
  await row.getByLabel('Vorname').fill(firstname);
  await row.getByLabel('Nachname').fill(lastname);
  await row.getByLabel('E-Mail').fill(email);
  return row;
}

/** Chooses the lists in the criteria picker and applies them. */
async function chooseCriteria(page, ...names) {
  await page.getByTestId('open-criteria').click();
  const picker = page.getByTestId('criteria-picker');
  await picker.waitFor();
  for (const name of names) await picker.getByLabel(name, { exact: true }).check();
  await picker.getByTestId('criteria-apply').click();
  await picker.waitFor({ state: 'detached' });
}

/** The id of a list of the local portal by its name. */
async function listId(page, providerName, listName) {
  const providers = await api(page, 'GET', '/api/providers/?limit=100&offset=0');
  const provider = providers.content.find((p) => p.name === providerName);
  assert.ok(provider, `provider ${providerName}`);
  const lists = await api(
    page,
    'GET',
    `/api/providers/${provider.id}/lists/?limit=1000&offset=0&sort=ASC&activeStatus=true&inactiveStatus=true`,
  );
  const list = lists.content.find((l) => l.name === listName);
  assert.ok(list, `list ${listName}`);
  return list.id;
}

// ---------------------------------------------------------------------------------------------
// The BU-DOI demo account of seed-demo (the contact editor only).
function buDoiLogin() {
  return 'doi';
}

// ---------------------------------------------------------------------------------------------

test('[lokal] an import candidate of the planning system becomes an active contact', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const saves = countRequests(page, isSave);
    const editor = await openEditor(page, 400001);

    assert.equal(await editor.getByTestId('customer-number').textContent(), '400001');
    assert.equal(await editor.getByTestId('company-name').textContent(), 'Planungs GmbH');
    assert.deepEqual(await activeEmails(page), []);
    assert.deepEqual(await candidateEmails(page), ['paul.plan@planung.example', 'petra.plan@planung.example']);
    assert.equal(await editor.getByTestId('submit').textContent(), 'Anlegen');
    await editor.getByRole('link', { name: 'Zurück zu den Kontakten' }).waitFor();

    // One click makes Paul a new contact.
    await editor.getByRole('button', { name: 'Paul Plan als neuen Kontakt übernehmen' }).click();
    assert.equal(await newRows(page).count(), 1);
    assert.equal(await newRows(page).first().getByLabel('E-Mail').inputValue(), 'paul.plan@planung.example');
    assert.deepEqual(await candidateEmails(page), ['petra.plan@planung.example']);

    // Without a criterion nothing is sent.
    await editor.getByTestId('submit').click();
    await expectToast(page, 'error', CRITERION_REQUIRED);
    assert.equal(saves.length, 0);

    await chooseCriteria(page, 'Privatkunden Strom Nord');
    assert.equal(await editor.getByTestId('criteria-count').textContent(), '1');

    await editor.getByTestId('submit').click();
    const confirm = page.getByTestId('confirm-create-modal');
    await confirm.getByText('1 neuen Kontakt anlegen?').waitFor();
    // The dialog keeps the focus: it starts on "Abbrechen" and Tab stays inside.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Abbrechen');
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      assert.ok(await confirm.evaluate((dialog) => dialog.contains(document.activeElement)), 'focus left the dialog');
    }
    await confirm.getByTestId('confirm-create').click();
    await expectToast(page, 'success', CREATED);
    assert.equal(saves.length, 1);
    await eventually(async () => assert.deepEqual(await activeEmails(page), ['paul.plan@planung.example']));
    assert.equal(await newRows(page).count(), 0);
    assert.deepEqual(await candidateEmails(page), ['petra.plan@planung.example']);
    assert.equal(await editor.getByTestId('submit').textContent(), 'Aktualisieren');

    // After a reload Paul is an active contact on the list.
    await page.reload();
    const reloaded = await openEditor(page, 400001);
    assert.deepEqual(await activeEmails(page), ['paul.plan@planung.example']);
    assert.equal(await reloaded.getByTestId('criteria-count').textContent(), '1');
    await reloaded.getByTestId('chosen-criteria').getByText('Privatkunden Strom Nord').waitFor();
    const group = await api(page, 'GET', '/api/contacts/customer-number/400001');
    const paul = group.content.find((c) => c.email === 'paul.plan@planung.example');
    assert.ok(paul, 'Paul is a contact of 400001');
    assert.deepEqual(paul.listsIds, [await listId(page, 'Stadtwerke Nord', 'Privatkunden Strom Nord')]);
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] the admin saves everything stored about a contact', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    await openEditor(page, 100001);
    const thomas = page.locator('[data-testid="active-contact"][data-email="thomas.mueller@example.de"]');
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      thomas.getByRole('link', { name: 'thomas.mueller@example.de: Daten exportieren' }).click(),
    ]);
    assert.match(saved.suggestedFilename(), /^Kontakt-\d+\.json$/);
    const document = JSON.parse(await readFile(await saved.path(), 'utf8'));
    assert.equal(document.contact.email, 'thomas.mueller@example.de');
    assert.equal(document.company.customerNumber, 100001);
    assert.ok(document.lists.length > 0);
    assert.equal(document.contact.consent.proven, false);
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] an email twice among the contacts is refused before any call', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const saves = countRequests(page, isSave);
    const editor = await openEditor(page, 100001);
    assert.ok((await activeEmails(page)).includes('thomas.mueller@example.de'));

    // Twice among an existing and a new contact.
    const row = await addContact(page, {
      firstname: 'Tamara',
      lastname: 'Doppelt',
      email: 'Thomas.Mueller@example.de',
    });
    const email = row.getByLabel('E-Mail');
    await row.getByTestId('error-email').getByText(DUPLICATE, { exact: true }).waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    const describedBy = await email.getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${describedBy}"]`).textContent(), DUPLICATE);

    await editor.getByTestId('submit').click();
    await page.locator('[data-testid="toast"][data-toast-type="error"]').getByText(DUPLICATE, { exact: true }).waitFor();
    // The focus went to the field.
    assert.equal(await email.evaluate((field) => field === document.activeElement), true);
    await expectToast(page, 'error', DUPLICATE);

    // Twice among two new contacts: the second one is marked.
    await email.fill(`tamara-${runTag}@example.de`);
    const second = await addContact(page, { firstname: 'Tim', lastname: 'Doppelt', email: `tamara-${runTag}@example.de` });
    await second.getByTestId('error-email').getByText(DUPLICATE, { exact: true }).waitFor();
    assert.equal(await row.getByTestId('error-email').count(), 0);
    await editor.getByTestId('submit').click();
    await expectToast(page, 'error', DUPLICATE);

    assert.equal(saves.length, 0);
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] an email of another customer is named after the debounce and blocks saving', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    const saves = countRequests(page, isSave);
    const checks = countRequests(page, isEmailCheck);
    const editor = await openEditor(page, 100002);

    await page.getByRole('button', { name: 'Kontakt hinzufügen' }).click();
    const row = newRows(page).last();
    await row.getByLabel('Anrede').selectOption({ label: 'Herr' });
    await row.getByLabel('Vorname').fill('Alex');
    await row.getByLabel('Nachname').fill('Zweitfirma');
    // Typed key by key: one check, 1000 ms after the last key.
    await row.getByLabel('E-Mail').pressSequentially('alex.weber@example.de', { delay: 40 });
    const typedAt = Date.now();
    const message = TAKEN('alex.weber@example.de', 100003);
    await row.getByTestId('error-email').getByText(message, { exact: true }).waitFor({ timeout: 5_000 });
    assert.ok(Date.now() - typedAt >= 900, 'the check waited for the debounce');
    assert.equal(checks.length, 1);
    assert.equal(await row.getByLabel('E-Mail').getAttribute('aria-invalid'), 'true');

    await editor.getByTestId('submit').click();
    await expectToast(page, 'error', message);
    assert.equal(saves.length, 0);
    assert.equal(await page.getByTestId('confirm-create-modal').count(), 0);

    // A free address clears it.
    await row.getByLabel('E-Mail').fill(`alex-${runTag}@example.de`);
    await eventually(async () => assert.equal(await row.getByTestId('error-email').count(), 0));

    // An empty row, saved straight away (its select still has the focus): the missing fields
    // are named after the attempt, none of them on leaving the field.
    await page.getByRole('button', { name: 'Kontakt hinzufügen' }).click();
    const empty = newRows(page).nth(1);
    assert.equal(await empty.getByLabel('Anrede').evaluate((select) => select === document.activeElement), true);
    await editor.getByTestId('submit').click();
    await expectToast(page, 'error', 'Bitte wählen Sie eine Anrede (Anrede wählen).');
    assert.equal(await empty.locator('[aria-invalid="true"]').count(), 4);
    assert.equal(saves.length, 0);
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] removing a contact asks first and deletes it', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    await page.goto('/admin/contacts');
    const number = 410000 + (Number.parseInt(runTag, 36) % 80000);
    const list = await listId(page, 'Stadtwerke Nord', 'Privatkunden Strom Nord');
    const keep = `bleibt-${runTag}@example.de`;
    const leave = `geht-${runTag}@example.de`;
    for (const [email, firstname] of [
      [keep, 'Berta'],
      [leave, 'Gerd'],
    ]) {
      await api(page, 'POST', '/api/contacts', {
        customerNumber: number,
        companyName: 'E2E Editor GmbH',
        email,
        salutation: 3,
        firstname,
        lastname: 'Prüf',
        listsIds: [list],
      });
    }
    const editor = await openEditor(page, number);
    assert.deepEqual((await activeEmails(page)).sort(), [keep, leave].sort());

    const row = page.locator(`[data-testid="active-contact"][data-email="${leave}"]`);
    await row.getByRole('button', { name: `${leave} entfernen` }).click();
    const removed = page.getByTestId('removed-section');
    const restore = removed.getByRole('button', { name: `${leave} wiederherstellen` });
    await restore.waitFor();
    // The focus followed the contact; it can come back, and go again.
    assert.equal(await restore.evaluate((button) => button === document.activeElement), true);
    await restore.press('Enter');
    await eventually(async () => assert.deepEqual((await activeEmails(page)).sort(), [keep, leave].sort()));
    await row.getByRole('button', { name: `${leave} entfernen` }).click();

    // A name changed on the way.
    await page.locator(`[data-testid="active-contact"][data-email="${keep}"]`).getByLabel('Vorname').fill('Bertha');
    await editor.getByTestId('submit').click();
    const confirm = page.getByTestId('confirm-delete-modal');
    await confirm.getByText('1 Kontakt löschen?').waitFor();
    await confirm.getByTestId('confirm-delete').click();
    await expectToast(page, 'success', UPDATED);
    assert.deepEqual(await activeEmails(page), [keep]);

    const group = await api(page, 'GET', `/api/contacts/customer-number/${number}`);
    assert.deepEqual(
      group.content.map((c) => [c.email, c.firstname]),
      [[keep, 'Bertha']],
    );
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] the admin erases a contact for good after naming what goes', () =>
  signedIn('admin', async ({ page, consoleErrors }) => {
    await page.goto('/admin/contacts');
    const number = 490000 + (Number.parseInt(runTag, 36) % 9000);
    const list = await listId(page, 'Stadtwerke Nord', 'Privatkunden Strom Nord');
    const keep = `bleibt-dsgvo-${runTag}@example.de`;
    const erase = `vergessen-${runTag}@example.de`;
    for (const email of [keep, erase]) {
      await api(page, 'POST', '/api/contacts', {
        customerNumber: number,
        companyName: 'E2E DSGVO GmbH',
        email,
        salutation: 2,
        firstname: 'Egon',
        lastname: 'Vergessen',
        listsIds: [list],
      });
    }
    await openEditor(page, number);
    const row = page.locator(`[data-testid="active-contact"][data-email="${erase}"]`);
    await row.getByRole('button', { name: `${erase}: Endgültig löschen (DSGVO)` }).click();
    const modal = page.getByTestId('confirm-erase-modal');
    await modal.getByText('den Kontakt in Brevo, wenn Brevo angebunden ist').waitFor();
    await modal.getByText('seine Angaben im Protokoll (sie lauten danach „gelöscht“)').waitFor();
    // The focus stays in the question; Escape leaves it without erasing.
    assert.equal(await modal.getByRole('button', { name: 'Abbrechen' }).evaluate((b) => b === document.activeElement), true);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    assert.deepEqual((await activeEmails(page)).sort(), [keep, erase].sort());

    await row.getByTestId('erase-contact').click();
    await modal.getByTestId('confirm-erase').click();
    await expectToast(page, 'success', 'Der Kontakt wurde endgültig gelöscht.');
    assert.deepEqual(await activeEmails(page), [keep]);
    assert.deepEqual(await api(page, 'GET', `/api/contacts/email/${erase}`), {});
    const group = await api(page, 'GET', `/api/contacts/customer-number/${number}`);
    assert.deepEqual(group.content.map((c) => c.email), [keep]);
    assert.deepEqual(consoleErrors, []);
  }));

test('[lokal] BU-DOI takes candidates and saves, but changes no names, contacts or criteria', () =>
  signedIn(buDoiLogin(), async ({ page, consoleErrors }) => {
    const editor = await openEditor(page, 100001);
    const thomas = page.locator('[data-testid="active-contact"][data-email="thomas.mueller@example.de"]');
    assert.equal(await thomas.getByLabel('Vorname').getAttribute('readonly'), '');
    assert.equal(await thomas.getByLabel('Nachname').getAttribute('readonly'), '');
    assert.equal(await thomas.getByLabel('Anrede').getAttribute('readonly'), '');
    assert.equal(await thomas.getByLabel('E-Mail').getAttribute('readonly'), null);
    // Seeded as confirmed, without the proof a confirmation through the link keeps.
    assert.equal(await thomas.getByTestId('consent').textContent(), 'Einwilligung: Nachweis nicht vorhanden');
    assert.equal(await editor.getByTestId('remove-contact').count(), 0);
    assert.equal(await editor.getByTestId('toggle-block').count(), 0);
    assert.equal(await editor.getByTestId('open-criteria').isDisabled(), true);
    // Typing into a read-only name changes nothing.
    await thomas.getByLabel('Vorname').press('X');
    assert.equal(await thomas.getByLabel('Vorname').inputValue(), 'Thomas');

    // The candidates of 400002 are theirs to take, and to save without a criterion.
    await openEditor(page, 400002);
    await page.getByRole('button', { name: 'Zentrale Einkauf als neuen Kontakt übernehmen' }).click();
    await page.getByTestId('submit').click();
    await page.getByTestId('confirm-create-modal').getByTestId('confirm-create').click();
    await expectToast(page, 'success', CREATED);
    await eventually(async () => assert.deepEqual(await activeEmails(page), ['einkauf@zweite.example']));
    assert.deepEqual(consoleErrors, []);
  }));

test('[Brevo] without a planning system the editor says so', () =>
  signedIn(
    'admin',
    async ({ page, consoleErrors }) => {
      const editor = await openEditor(page, 100001);
      const note = editor.getByTestId('imports-message');
      await note.waitFor();
      assert.match(await note.textContent(), NO_PLANNING);
      assert.equal(await editor.getByTestId('candidate').count(), 0);
      assert.ok((await activeEmails(page)).includes('thomas.mueller@example.de'));
      assert.deepEqual(consoleErrors, []);
    },
    { accountsFile: brevoAccountsFile(), contextOptions: { baseURL: brevoBaseUrl() } },
  ));
