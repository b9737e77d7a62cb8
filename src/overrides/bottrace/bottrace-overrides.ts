import type { EntityOverrides } from '../../../runtime/overrides/override-registry.ts';
import { lazyWithPreload } from '../../../runtime/lazy/lazy-with-preload.ts';

/** Bot traces: the view shows the retrieved fragments readably (bottrace-form.tsx). */
export const bottraceOverrides: EntityOverrides = {
  form: lazyWithPreload(() => import('./bottrace-form.tsx').then((module) => module.BotTraceForm)),
};
