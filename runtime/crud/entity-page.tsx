import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { useRuntime } from '../context/runtime-context.tsx';
import { entityOverrides } from '../overrides/override-registry.ts';
import { CrudPage } from './crud-page.tsx';

/**
 * The page for an entity route: the registered override when there is one, else the generic page.
 * Keyed by entity: going from one entity's page to another's (a transcript's trace link, the menu)
 * starts a fresh page, never one still holding the previous entity's dialog, filters or page.
 */
export function EntityPage({ model }: { model: ClientEntityModel }) {
  const Page = entityOverrides(useRuntime().overrides, model.name).page;
  return Page ? <Page key={model.name} model={model} /> : <CrudPage key={model.name} model={model} />;
}
