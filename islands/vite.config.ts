/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Build contract with the Rust server (see src/assets.rs there):
// - output in dist/, manifest at dist/.vite/manifest.json, one entry keyed `src/main.tsx`;
// - the server serves dist/assets/ at the URL /assets/, so with base '/' and the default
//   assetsDir every chunk, style sheet and font is referenced as /assets/<name>-<hash>.<ext>.
export default defineConfig({
  base: '/',
  plugins: [react()],
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
    // Date formatting is local time; pin the zone the portal's users are in.
    env: { TZ: 'Europe/Berlin' },
    restoreMocks: true,
  },
});
