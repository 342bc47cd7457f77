import { defineConfig } from 'vite';

// The React API is written against, Preact (compat) is what ships: same components, ~60 KB less JS.
const preactCompat = [
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react(-dom)?$/, replacement: 'preact/compat' },
];

export default defineConfig({
  resolve: { alias: preactCompat },
  build: {
    target: 'es2022',
    // Every supported browser knows modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      onwarn(warning, warn) {
        // jotai's 'use client' marker is for React Server Components, which an SPA does not have.
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': process.env.API_URL ?? 'http://localhost:3000' },
  },
});
