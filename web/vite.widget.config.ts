import { defineConfig } from 'vite';

/**
 * widget.js, the chat the owner pastes in their website: one self-contained classic script (an IIFE, no
 * imports, no chunks), next to the app's build in dist/ so the server serves it at PUBLIC_URL/widget.js.
 */
export default defineConfig({
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: 'dist',
    // The app's build ran first into the same folder.
    emptyOutDir: false,
    lib: { entry: 'widget/main.ts', formats: ['iife'], name: 'asistenteWidget', fileName: () => 'widget.js' },
  },
});
