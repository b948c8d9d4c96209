// The console's build: a single-page app under /console/, every file hashed and served by
// `strata serve` from dist/ (src/api/console-page.ts). Nothing is loaded from another host.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

export default defineConfig({
  base: '/console/',
  resolve: {
    alias: {
      // The typed client from its source: the same paths and types the server's document describes.
      '@strata/client': fileURLToPath(new URL('../clients/typescript/src/index.ts', import.meta.url)),
      react: 'preact/compat',
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One policy for every file the page loads: scripts from this server only (no inline loader).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: true,
  },
})
