import { queryOptions } from '@tanstack/react-query';
import type { RuntimeServices } from '../context/runtime-context.tsx';
import { LazyEntityForm } from '../form/lazy-entity-form.ts';
import { preloadComponent } from '../lazy/lazy-with-preload.ts';
import type { FormOverride } from '../overrides/override-registry.ts';

/**
 * What a CRUD dialog needs before it can show its form: the entity's generated schemas and the
 * form's code (both lazy chunks), fetched together so the dialog waits once. The page prefetches
 * it when the user shows intent (hover or focus on create, view, edit, delete).
 */
export function crudFormQuery(entity: string, forms: RuntimeServices['forms'], form: FormOverride = LazyEntityForm) {
  return queryOptions({
    queryKey: ['form-schemas', entity],
    queryFn: async () => {
      const loader = forms[entity];
      if (!loader) throw new Error(`Form schemas for entity "${entity}" not found`);
      const [schemas] = await Promise.all([loader(), preloadComponent(form)]);
      return schemas;
    },
    staleTime: Infinity,
  });
}
