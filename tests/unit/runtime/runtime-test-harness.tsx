import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import { RuntimeContext, type RuntimeServices } from '../../../runtime/context/runtime-context.tsx';
import { PermissionsContext, type Can } from '../../../runtime/permissions/permissions-context.tsx';
import { manifestIcons } from '../../../src/generated/icons.ts';
import es from '../../../locales/es.json';

/** jsdom lacks these browser APIs that Mantine uses. */
export function installBrowserShims(): void {
  if (!window.matchMedia) {
    window.matchMedia = ((query: string) => ({
      matches: false, media: query, onchange: null,
      addListener: () => undefined, removeListener: () => undefined,
      addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
  }
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  Element.prototype.scrollIntoView ??= () => undefined;
}

export const testI18n = i18next.createInstance();
void testI18n.init({
  lng: 'es',
  resources: { es: { translation: es } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function RuntimeHarness({ services, can = () => true, children }: { services: Partial<RuntimeServices>; can?: Can; children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const full: RuntimeServices = {
    entityClients: {},
    entities: {},
    uploader: { uploadFile: async () => ({ filename: 'a.txt', filepath: 'files/a.txt', size: 1, mimetype: 'text/plain', url: '/files/a.txt' }) },
    forms: {},
    overrides: {},
    icons: manifestIcons,
    ...services,
  };
  return (
    <MantineProvider env="test">
      <I18nextProvider i18n={testI18n}>
        <QueryClientProvider client={client}>
          <PermissionsContext value={can}>
            <RuntimeContext value={full}>{children}</RuntimeContext>
          </PermissionsContext>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
