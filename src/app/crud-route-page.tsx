import { EntityPage } from '../../runtime/crud/entity-page.tsx';
import { ActiveJobProgressContext } from '../../runtime/jobs/active-job-progress.tsx';
import { RunningJobProgress } from '../jobs/running-job-progress.tsx';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';

/** Default export for React.lazy: the CRUD runtime loads only when a CRUD route is opened. */
export default function CrudRoutePage({ model }: { model: ClientEntityModel }) {
  // Imports and exports are server jobs: their progress bars read the jobs API.
  return (
    <ActiveJobProgressContext.Provider value={RunningJobProgress}>
      <EntityPage model={model} />
    </ActiveJobProgressContext.Provider>
  );
}
