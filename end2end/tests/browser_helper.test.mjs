// Checks the helper itself (no portal needed): a clear error without AP_BASE_URL, and that
// Debian's chromium starts, renders and reports console errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseUrl, UTC, withPage } from '../lib/browser.mjs';

async function withBaseUrl(value, fn) {
  const saved = process.env.AP_BASE_URL;
  if (value === undefined) delete process.env.AP_BASE_URL;
  else process.env.AP_BASE_URL = value;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.AP_BASE_URL;
    else process.env.AP_BASE_URL = saved;
  }
}

test('a missing AP_BASE_URL is a clear error', () =>
  withBaseUrl(undefined, async () => {
    assert.throws(() => baseUrl(), /AP_BASE_URL is not set/);
    await assert.rejects(withPage(async () => {}), /AP_BASE_URL is not set/);
  }));

test('the base URL loses its trailing slash', () =>
  withBaseUrl('http://127.0.0.1:3000/', () => {
    assert.equal(baseUrl(), 'http://127.0.0.1:3000');
  }));

test('chromium renders a page and the helper collects its console errors', () =>
  // Nothing listens there: the page below is a data: URL and needs no server.
  withBaseUrl('http://127.0.0.1:9', () =>
    withPage(async ({ page, consoleErrors }) => {
      const html = '<!doctype html><title>t</title><p id="p">Hallo</p><script>console.error("kaputt")</script>';
      await page.goto(`data:text/html,${encodeURIComponent(html)}`);
      assert.equal(await page.locator('#p').textContent(), 'Hallo');
      assert.deepEqual(consoleErrors, ['kaputt']);
    }),
  ));

test('a context is in Berlin unless told another zone', () =>
  withBaseUrl('http://127.0.0.1:9', async () => {
    const zone = ({ page }) => page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    assert.equal(await withPage(zone), 'Europe/Berlin');
    assert.equal(await withPage(zone, { timezoneId: UTC }), 'UTC');
  }));
