import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { prerenderSignIn } from './scripts/prerender-sign-in.ts';
import { themeVariablesCss } from './scripts/theme-variables-css.ts';
import { textsChunks } from './scripts/texts-chunks.ts';
import { devLive } from './scripts/vite-dev-live.ts';

const apiTarget = process.env.FORJA_API_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  // Brotli and gzip copies beside every asset, served by the server (preCompressed) to browsers that
  // take them: the console's JavaScript and CSS travel at a fifth of their size, compressed once.
  plugins: [react(), textsChunks(), themeVariablesCss(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }), prerenderSignIn(), devLive(apiTarget)],
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    // The dev console talks to the API server started by `npm run dev` beside it.
    proxy: { '/api': apiTarget, '/graphql': apiTarget, '/files': apiTarget },
  },
  // Scan every screen (most are lazy routes) for dependencies when the dev server starts, so the
  // first visit to a screen never makes Vite re-optimise and reload the page under a user or a test.
  optimizeDeps: {
    entries: ['index.html', 'src/**/*.tsx', 'runtime/**/*.tsx'],
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // Every browser the console supports preloads modules itself (Chromium 66, Firefox 115,
    // Safari 17); without the polyfill an older one loads them as it meets them, only later.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Explicit compile hint (Chrome 136+; other engines ignore the comment): V8 compiles every
        // function of the vendor chunk (React, router, i18next, the UI kit's sign-in share) while it
        // streams in, on a background thread, instead of each on the main thread at its first call;
        // nearly all of it runs at start-up. It took about 60 ms of main-thread time off the sign-in
        // page's cold load. The entry cannot carry it: Vite writes its preload map above any banner.
        postBanner: (chunk) => (chunk.name === 'vendor' ? '//# allFunctionsCalledOnLoad' : ''),
        // Left alone, the bundler cuts the UI kit into one chunk per set of lazy screens sharing a
        // component: 70+ files for a CRUD route, each a request and a module to link. Two groups
        // instead: what the entry needs, and the rest of the UI kit that lazy screens share.
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'ui-kit', test: /[\\/]node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui|react-remove-scroll|react-style-singleton|use-sidecar|use-callback-ref|get-nonce|tslib|react-transition-group)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
