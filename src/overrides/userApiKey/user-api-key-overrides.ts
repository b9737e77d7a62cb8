import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';

export const userApiKeyOverrides: EntityOverrides = {
  page: lazyWithPreload(() => import('./api-key-page.tsx').then((module) => module.ApiKeyPage)),
  // No always-empty Secreto, no owner pickers on create (issue 27).
  form: lazyWithPreload(() => import('./api-key-form.tsx').then((module) => module.ApiKeyForm)),
};
