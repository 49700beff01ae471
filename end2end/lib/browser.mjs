// Browser-test helper: playwright-core driving Debian's chromium (no browser download).
//
//   import { withPage } from '../lib/browser.mjs';
//   test('…', () => withPage(async ({ page, consoleErrors }) => {
//     await page.goto('/user/downloads');          // relative to AP_BASE_URL
//     assert.deepEqual(consoleErrors, []);
//   }));
//
// The second portal of scripts/e2e.sh (Brevo mode, against a fake Brevo):
//   withPage(fn, { baseURL: brevoBaseUrl() })   // and logIn(page, login, { accountsFile: brevoAccountsFile() })
//
// A browser somewhere else (the portal's dates must still read in German time):
//   withPage(fn, { timezoneId: UTC })
//
// One browser per test file, launched on first use and closed after the file's last test;
// every withPage call gets a fresh context (own cookies and storage) and page.
import { after } from 'node:test';
import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

/** The running portal's base URL, from AP_BASE_URL (required), without a trailing slash. */
export function baseUrl() {
  const value = process.env.AP_BASE_URL;
  if (!value || value.trim() === '') {
    throw new Error(
      'AP_BASE_URL is not set: start the portal and run the browser tests with ' +
        'AP_BASE_URL=http://127.0.0.1:3000 (or wherever it listens).',
    );
  }
  return normalizeBaseUrl(value, 'AP_BASE_URL');
}

/** Berlin, where the portal's users are: the default zone of every context. */
export const BERLIN = 'Europe/Berlin';
/** A zone other than Berlin, for `withPage(fn, { timezoneId: UTC })`. */
export const UTC = 'UTC';

let browserPromise = null;

/** The shared browser of this test file (launched on first use). */
export function getBrowser() {
  if (!browserPromise) {
    browserPromise = chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    // If the launch fails, let the next call try again rather than reuse the rejection.
    browserPromise.catch(() => {
      browserPromise = null;
    });
  }
  return browserPromise;
}

export async function closeBrowser() {
  const pending = browserPromise;
  browserPromise = null;
  if (!pending) return;
  try {
    const browser = await pending;
    await browser.close();
  } catch {
    // A browser that never started has nothing to close.
  }
}

// Close the browser after the last test of the file, so the test process can exit.
after(closeBrowser);

function describeConsoleMessage(message) {
  const { url, lineNumber } = message.location();
  return url ? `${message.text()} (${url}:${lineNumber})` : message.text();
}

/**
 * The second portal of scripts/e2e.sh, which runs in Brevo mode against a fake Brevo, from
 * AP_BASE_URL_BREVO (required when a test uses it), without a trailing slash.
 */
export function brevoBaseUrl() {
  const value = process.env.AP_BASE_URL_BREVO;
  if (!value || value.trim() === '') {
    throw new Error(
      'AP_BASE_URL_BREVO is not set: run the browser tests through scripts/e2e.sh, which starts ' +
        'a second portal in Brevo mode (against a fake Brevo) for them.',
    );
  }
  return normalizeBaseUrl(value, 'AP_BASE_URL_BREVO');
}

function normalizeBaseUrl(value, name) {
  let parsed;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw new Error(`${name} is not a valid URL: ${JSON.stringify(value)}`);
  }
  return parsed.href.replace(/\/+$/, '');
}

/**
 * Runs `fn({ page, context, consoleErrors, baseUrl })` on a fresh page of a fresh context whose
 * baseURL is AP_BASE_URL, and closes the context afterwards (also when `fn` throws).
 * `consoleErrors` collects console.error messages and uncaught page errors as strings.
 * `contextOptions` are passed to `browser.newContext` (defaults: de-DE, Europe/Berlin; pass
 * `{ timezoneId: UTC }` for a browser set to another zone); a
 * `baseURL` among them (e.g. `brevoBaseUrl()`) replaces AP_BASE_URL, also as `baseUrl` of `fn`.
 */
export async function withPage(fn, contextOptions = {}) {
  const base =
    contextOptions.baseURL === undefined ? baseUrl() : normalizeBaseUrl(String(contextOptions.baseURL), 'baseURL');
  const browser = await getBrowser();
  const context = await browser.newContext({
    locale: 'de-DE',
    timezoneId: BERLIN,
    ...contextOptions,
    baseURL: base,
  });
  try {
    const page = await context.newPage();
    const consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(describeConsoleMessage(message));
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    return await fn({ page, context, consoleErrors, baseUrl: base });
  } finally {
    await context.close();
  }
}
