// Debian's Chromium and the flags it runs with here (no browser download), shared by the
// browser tests (lib/browser.mjs) and the benchmarks (bench/), which must not load node:test.
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
