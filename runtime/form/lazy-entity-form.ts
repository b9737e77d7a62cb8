import { lazyWithPreload } from '../lazy/lazy-with-preload.ts';
import type { EntityFormProps } from './entity-form.tsx';

/**
 * EntityForm in a chunk of its own: RJSF, AJV and the form widgets are most of a CRUD route's
 * JavaScript, and a list needs none of them until a dialog opens.
 */
export const LazyEntityForm = lazyWithPreload<EntityFormProps>(() => import('./entity-form.tsx').then((module) => module.EntityForm));
