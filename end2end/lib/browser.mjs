// Browser-test helper: playwright-core driving Debian's chromium (no browser download).
//
//   import { withPage } from '../lib/browser.mjs';
//   test('…', () => withPage(async ({ page, consoleErrors }) => {
//     await page.goto('/user/downloads');          // relative to AP_BASE_URL
//     assert.deepEqual(consoleErrors, []);
//   }));
//
// One browser per test file, launched on first use and closed after the file's last test;
// every withPage call gets a fresh context (own cookies and storage) and page.
import { after } from 'node:test';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The running portal's base URL, from AP_BASE_URL (required), without a trailing slash. */
export function baseUrl() {
  const value = process.env.AP_BASE_URL;
  if (!value || value.trim() === '') {
    throw new Error(
      'AP_BASE_URL is not set: start the portal and run the browser tests with ' +
        'AP_BASE_URL=http://127.0.0.1:3000 (or wherever it listens).',
    );
  }
  let parsed;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw new Error(`AP_BASE_URL is not a valid URL: ${JSON.stringify(value)}`);
  }
  return parsed.href.replace(/\/+$/, '');
}

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
 * Runs `fn({ page, context, consoleErrors, baseUrl })` on a fresh page of a fresh context whose
 * baseURL is AP_BASE_URL, and closes the context afterwards (also when `fn` throws).
 * `consoleErrors` collects console.error messages and uncaught page errors as strings.
 * `contextOptions` are passed to `browser.newContext` (defaults: de-DE, Europe/Berlin).
 */
export async function withPage(fn, contextOptions = {}) {
  const base = baseUrl();
  const browser = await getBrowser();
  const context = await browser.newContext({
    baseURL: base,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    ...contextOptions,
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
