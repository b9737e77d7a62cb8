import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { i18n, loadAllTexts } from '../../../src/app/i18n.ts';
import { installBrowserShims } from '../runtime/runtime-test-harness.tsx';

installBrowserShims();
// Every text, as the console has by the time a screen other than the sign-in page renders.
await loadAllTexts();

/** The app's real i18n (Spanish), Mantine and a memory router at `path`. */
export function ConsoleHarness({ children, path = '/', pattern = '*' }: { children: ReactNode; path?: string; pattern?: string }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <MantineProvider env="test">
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={pattern} element={children} />
              <Route path="/done" element={<p>done page</p>} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
