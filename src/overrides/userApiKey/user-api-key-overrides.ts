import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';

export const userApiKeyOverrides: EntityOverrides = {
  page: lazyWithPreload(() => import('./api-key-page.tsx').then((module) => module.ApiKeyPage)),
};
