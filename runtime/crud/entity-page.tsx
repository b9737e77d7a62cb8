import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { useRuntime } from '../context/runtime-context.tsx';
import { entityOverrides } from '../overrides/override-registry.ts';
import { CrudPage } from './crud-page.tsx';

/** The page for an entity route: the registered override when there is one, else the generic page. */
export function EntityPage({ model }: { model: ClientEntityModel }) {
  const Page = entityOverrides(useRuntime().overrides, model.name).page;
  return Page ? <Page model={model} /> : <CrudPage model={model} />;
}
