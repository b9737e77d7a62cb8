import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import 'virtual:forja/theme-variables.css';
import { App } from './app/app.tsx';
import { i18nReady, loadAllTexts } from './app/i18n.ts';
import { canHydrate, PRERENDERED_PAGES } from './app/prerendered-page.ts';
import { reloadOnStaleChunk } from './app/reload-on-stale-chunk.ts';

reloadOnStaleChunk();
// Every screen but the sign-in page waits for the rest of the texts: fetched now, beside the screen's own chunk.
if (!(window.location.pathname in PRERENDERED_PAGES)) void loadAllTexts();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A prerendered page (the sign-in page) is hydrated when it is what the app would render for this
// visitor; otherwise (signed in, another language or theme) it is replaced.
if (canHydrate(root, window.location.pathname)) {
  // The prerendered page's own script (src/identity/early-sign-in.ts, HYDRATING_EVENT) puts back what it changed.
  document.dispatchEvent(new Event('forja:hydrating'));
  hydrateRoot(root, app);
} else {
  // A visitor who chose another language than Spanish sees it from the first paint.
  void i18nReady.then(() => {
    root.replaceChildren();
    createRoot(root).render(app);
  });
}
