import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import { App } from './app/app.tsx';
import { i18nReady } from './app/i18n.ts';
import { reloadOnStaleChunk } from './app/reload-on-stale-chunk.ts';

reloadOnStaleChunk();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A visitor who chose another language than Spanish sees it from the first paint.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
