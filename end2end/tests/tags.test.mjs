// The tag screen (issue 25): the admin creates a tag with a picked icon, it is refused twice
// in other letters, a package's file carries it, the dealer filters by it on the customer page,
// and deleting it asks first, naming the file it leaves. The screen passes axe at 320 px.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logIn } from '../lib/accounts.mjs';
import { axeViolations } from '../lib/axe.mjs';
import { withPage } from '../lib/browser.mjs';
import { expectToast } from '../lib/toasts.mjs';

const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';
const runTag = Date.now().toString(36).slice(-5);
const TAG = `E2E Tag ${runTag}`;
const PACKAGE = `E2E Getaggt ${runTag}`;

async function json(response) {
  assert.ok(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`);
  return response.json();
}

async function asAdmin(page) {
  await logIn(page, 'admin');
  await page.waitForURL((url) => !url.pathname.startsWith('/api/auth/login'));
}

test('an admin makes a tag, a file carries it, the dealer filters by it, and it goes again', async () => {
  let packageId;
  await withPage(
    async ({ page, consoleErrors }) => {
      await asAdmin(page);
      await page.goto('/admin/downloads');
      await page.getByTestId('admin-menu-tags').click();
      await page.waitForURL('**/admin/tags');
      const screen = page.locator('[data-testid="admin-tags"][data-loaded="true"]');
      await screen.waitFor();

      await page.getByTestId('new-tag').click();
      const modal = page.getByTestId('tag-form-modal');
      await modal.getByLabel('Name').fill(`  ${TAG} `);
      await modal.locator('label[title="star"]').click();
      assert.match(await modal.getByTestId('tag-icon-preview').textContent(), /star/);
      assert.deepEqual(await axeViolations(page), [], 'the form at 320 px');
      await modal.getByTestId('tag-save').click();
      await expectToast(page, 'success', `Der Tag „${TAG}“ wurde angelegt.`);
      const row = page.locator(`[data-testid="tag-row"][data-name="${TAG}"]`);
      await row.waitFor();
      assert.equal(await row.locator('.bi-star').count(), 1);

      // The same name in capitals is the same tag.
      await page.getByTestId('new-tag').click();
      await modal.getByLabel('Name').fill(TAG.toUpperCase());
      await modal.getByTestId('tag-save').click();
      await modal.getByText(`Einen Tag „${TAG}“ gibt es bereits.`).waitFor();
      assert.equal(await modal.getByLabel('Name').evaluate((input) => input === document.activeElement), true);
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      assert.deepEqual(await axeViolations(page), [], 'the screen at 320 px');
      // Every row's buttons are on the screen, not beyond a sideways scroll of the table. One row
      // per tag (the demo's and this test's, so never none), each with its two buttons.
      const tagNames = (await json(await page.request.get('/api/tags'))).map((t) => t.name);
      assert.ok(tagNames.includes(TAG), `the new tag is among ${tagNames.join(', ')}`);
      const tagCount = tagNames.length;
      assert.equal(await page.getByTestId('tag-row').count(), tagCount, 'one row per tag');
      const buttons = await page.locator('[data-testid="tag-row"] button').all();
      assert.equal(buttons.length, 2 * tagCount, 'edit and delete in every row');
      for (const button of buttons) {
        const box = await button.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 320, `a row's button ends at ${box && box.x + box.width} px`);
      }

      // A file of a package on the dealer's list carries it.
      const tags = await json(await page.request.get('/api/tags'));
      const tag = tags.find((t) => t.name === TAG);
      const providers = await json(await page.request.get('/api/providers/?limit=50&offset=0'));
      const provider = providers.content.find((p) => p.name === 'Glasfaser Süd');
      const lists = await json(
        await page.request.get(`/api/providers/${provider.id}/lists/?limit=50&offset=0&activeStatus=true&inactiveStatus=true`),
      );
      const list = lists.content.find((l) => l.name === 'Glasfaser Privatkunden');
      const upload = await json(
        await page.request.post('/api/upload/', {
          multipart: { 'files[0]': { name: 'Getaggt.txt', mimeType: 'text/plain', buffer: Buffer.from('Tag-Test\n') } },
        }),
      );
      const today = new Date().toISOString().slice(0, 10);
      const created = await json(
        await page.request.post('/api/download/', {
          data: {
            name: PACKAGE,
            startAt: today,
            endAt: '2099-12-31',
            ProviderId: provider.id,
            listsIds: [list.id],
            uploadsToInsert: [{ id: upload.id, tagsIds: [tag.id] }],
          },
        }),
      );
      packageId = created.id;
      // The browser reports the refused duplicate (409) as a failed load; nothing else.
      assert.ok(
        consoleErrors.every((line) => /409 \(Conflict\).*\/api\/tags/.test(line)),
        consoleErrors.join('\n'),
      );
    },
    { viewport: { width: 320, height: 640 }, bypassCSP: true },
  );

  await withPage(async ({ page, context, consoleErrors }) => {
    await context.addInitScript((key) => window.localStorage.setItem(key, 'e2e'), TOUR_FLAG);
    await logIn(page, 'haendler');
    await page.waitForURL('**/user/downloads');
    await page.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
    await page.getByTestId('filters-toggle').click();
    await page.getByTestId('filter-panel').getByLabel(TAG, { exact: true }).check();
    await page.waitForFunction(
      (name) => {
        const shown = [...document.querySelectorAll('[data-testid="download-row"] .ap-package-name')].map((e) => e.textContent);
        return shown.length === 1 && shown[0] === name;
      },
      PACKAGE,
    );
    assert.deepEqual(consoleErrors, []);
  });

  await withPage(async ({ page, consoleErrors }) => {
    await asAdmin(page);
    await page.goto('/admin/tags');
    const row = page.locator(`[data-testid="tag-row"][data-name="${TAG}"]`);
    await row.waitFor();
    assert.equal(await row.locator('td').nth(2).textContent(), '1');
    await row.getByRole('button', { name: `${TAG} löschen` }).click();
    const confirm = page.getByTestId('confirm-tag-delete');
    await confirm.getByText(`Der Tag „${TAG}“ ist an 1 Datei vergeben. Er wird dort entfernt. Löschen?`).waitFor();
    await confirm.getByTestId('confirm-tag-delete-button').click();
    await expectToast(page, 'success', `Der Tag „${TAG}“ wurde gelöscht.`);
    await row.waitFor({ state: 'detached' });
    const changed = await json(await page.request.get(`/api/download/${packageId}`));
    assert.deepEqual(changed.Uploads[0].tagsIds, []);
    // The package was only for this test: the dealer's other walks count the demo packages.
    await json(await page.request.delete(`/api/download/${packageId}`));
    assert.deepEqual(consoleErrors, []);
  });
});
