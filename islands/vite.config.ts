/// <reference types="vitest/config" />
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes `<file>.gz` and `<file>.br` beside every compressible asset of the build, so the
 * server sends them by `Accept-Encoding` without compressing at request time.
 */
function precompress(): Plugin {
  const compressible = /\.(js|css|svg|json|html|txt|ttf|eot)$/;
  return {
    name: 'aktionsportal-precompress',
    apply: 'build',
    closeBundle() {
      const dir = join(__dirname, 'dist', 'assets');
      for (const name of readdirSync(dir)) {
        if (!compressible.test(name)) continue;
        const path = join(dir, name);
        const bytes = readFileSync(path);
        if (bytes.length < 1024) continue;
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

// Build contract with the Rust server (see src/assets.rs there):
// - output in dist/, manifest at dist/.vite/manifest.json, one entry keyed `src/main.tsx`;
// - the server serves dist/assets/ at the URL /assets/, so with base '/' and the default
//   assetsDir every chunk, style sheet and font is referenced as /assets/<name>-<hash>.<ext>.
export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    manifest: true,
    // No inlining of small fonts/images as data: URLs; every asset stays a hashed file.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: 'src/main.tsx',
    },
  },
  server: {
    fs: {
      // src/main.tsx imports ../../style/main.css (the portal's own styles live at the repo root).
      allow: ['..'],
    },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // A committed `.only` would quietly run one test and pass; fail the run instead.
    allowOnly: false,
    // A zone other than Berlin, so a date shown in the browser's zone instead of German time
    // fails the tests (src/lib/format.test.ts checks the zone is really in effect).
    env: { TZ: 'America/New_York' },
  },
});
