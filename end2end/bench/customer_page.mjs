// The customer page's cold load in headless Chromium, for scripts/bench.sh `customer-page`:
// largest contentful paint, layout shift, bytes on the wire, and the page's own JavaScript.
//
//   AP_BASE_URL=… AP_BENCH_LOGIN=haendler AP_BENCH_PASSWORD=… AP_BENCH_ASSETS=islands/dist/assets \
//     node bench/customer_page.mjs [runs]
//
// Every run is a new browser context (empty cache) that signs in through the API first, so the
// page load itself is the first contact with the page and its assets. Prints one JSON object.
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../lib/chromium.mjs';

const base = process.env.AP_BASE_URL;
const login = process.env.AP_BENCH_LOGIN ?? 'haendler';
const password = process.env.AP_BENCH_PASSWORD;
const assets = process.env.AP_BENCH_ASSETS ?? '../islands/dist/assets';
const runs = Number(process.argv[2] ?? 5);
const TOUR_FLAG = 'aktionsportal:tour-downloads-completed';

/** One cold load; `firstVisit` leaves the tour to start (its lazy chunk then loads too). */
async function coldLoad(browser, firstVisit) {
  const context = await browser.newContext({ baseURL: base, locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1366, height: 900 } });
  try {
    if (!firstVisit) await context.addInitScript((key) => window.localStorage.setItem(key, 'bench'), TOUR_FLAG);
    const signIn = await context.request.post('/api/auth/login', { form: { login, password }, maxRedirects: 0 });
    if (signIn.status() >= 400) throw new Error(`sign-in failed: ${signIn.status()}`);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const requests = new Map();
    cdp.on('Network.responseReceived', ({ requestId, response, type }) => {
      requests.set(requestId, { url: response.url, type, encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? '', bytes: 0 });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const request = requests.get(requestId);
      if (request) request.bytes = encodedDataLength;
    });
    await page.goto('/user/downloads', { waitUntil: 'load' });
    await page.locator('[data-island="CustomerDownloads"][data-island-state="mounted"]').waitFor();
    if (firstVisit) await page.locator('[data-joyride-step]').waitFor();
    await page.waitForLoadState('networkidle');
    const vitals = await page.evaluate(
      () =>
        new Promise((resolve) => {
          let lcp = 0;
          let element = '';
          let cls = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              lcp = entry.renderTime || entry.loadTime || entry.startTime;
              element = entry.element ? `${entry.element.tagName.toLowerCase()}.${[...entry.element.classList].join('.')}` : '';
            }
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              if (entry.hadRecentInput) continue;
              cls += entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          const rows = document.querySelectorAll('[data-testid="download-row"]').length;
          setTimeout(() => resolve({ lcp, element, cls, rows }), 500);
        }),
    );
    return { ...vitals, requests: [...requests.values()] };
  } finally {
    await context.close();
  }
}

/** The gzip size of a built asset (the .gz the build wrote beside it), or its own size. */
function gzipSize(url) {
  const file = join(assets, basename(new URL(url).pathname));
  if (existsSync(`${file}.gz`)) return statSync(`${file}.gz`).size;
  return existsSync(file) ? statSync(file).size : 0;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  await coldLoad(browser, false); // Warms the server (first page render, file system cache).
  const returning = [];
  for (let i = 0; i < runs; i += 1) returning.push(await coldLoad(browser, false));
  const first = await coldLoad(browser, true);
  const sample = returning[0];
  const scripts = sample.requests.filter((r) => r.type === 'Script');
  const byType = {};
  for (const r of sample.requests) byType[r.type] = (byType[r.type] ?? 0) + r.bytes;
  console.log(
    JSON.stringify({
      runs,
      rows: sample.rows,
      lcpMs: median(returning.map((r) => r.lcp)),
      lcpMaxMs: Math.max(...returning.map((r) => r.lcp)),
      lcpElement: sample.element,
      cls: Math.max(...returning.map((r) => r.cls)),
      transferBytes: median(returning.map((r) => r.requests.reduce((sum, q) => sum + q.bytes, 0))),
      transferByType: byType,
      scripts: scripts.map((s) => ({ name: basename(new URL(s.url).pathname), transferred: s.bytes, encoding: s.encoding, gzip: gzipSize(s.url) })),
      scriptGzipBytes: scripts.reduce((sum, s) => sum + gzipSize(s.url), 0),
      firstVisitTransferBytes: first.requests.reduce((sum, q) => sum + q.bytes, 0),
      firstVisitLcpMs: first.lcp,
      largest: sample.requests
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 6)
        .map((r) => ({ name: basename(new URL(r.url).pathname) || '/', type: r.type, bytes: r.bytes, encoding: r.encoding })),
    }),
  );
} finally {
  await browser.close();
}
