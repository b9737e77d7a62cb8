import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app.tsx';
import type { PrerenderedPath } from './app/prerendered-page.ts';

/**
 * The console's markup at `path` for a signed-out visitor in the default language and theme: the
 * build writes it into the page's HTML (scripts/prerender-sign-in.ts), so the form shows before any
 * script runs, and main.tsx hydrates it. The same tree as main.tsx renders.
 */
export function renderPage(path: PrerenderedPath): string {
  return renderToString(
    <StrictMode>
      <App location={path} />
    </StrictMode>,
  );
}
