import { EntityPage } from '../../runtime/crud/entity-page.tsx';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';

/** Default export for React.lazy: the CRUD runtime loads only when a CRUD route is opened. */
export default function CrudRoutePage({ model }: { model: ClientEntityModel }) {
  return <EntityPage model={model} />;
}
