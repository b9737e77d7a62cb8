import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { EntityPage } from '../../runtime/crud/entity-page.tsx';
import { ReplaceSearchContext } from '../../runtime/crud/replace-search.tsx';
import { ColumnChoiceUserContext } from '../../runtime/table/column-choice.ts';
import { useSessionState } from '../session/session.ts';
import { ActiveJobProgressContext } from '../../runtime/jobs/active-job-progress.tsx';
import { RunningJobProgress } from '../jobs/running-job-progress.tsx';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';

/** Default export for React.lazy: the CRUD runtime loads only when a CRUD route is opened. */
export default function CrudRoutePage({ model }: { model: ClientEntityModel }) {
  // The page changes its query string (a closed deep link's ?edit=) through the router, in place.
  const navigate = useNavigate();
  const { pathname, hash, state } = useLocation();
  const replaceSearch = useCallback((search: string) => void navigate({ pathname, search, hash }, { replace: true, state }), [navigate, pathname, hash, state]);
  // Each user's column choice is their own, also on a shared browser.
  const user = useSessionState().user;
  const userKey = user?.id ?? user?._id ?? null;
  // Imports and exports are server jobs: their progress bars read the jobs API.
  return (
    <ReplaceSearchContext.Provider value={replaceSearch}>
      <ColumnChoiceUserContext.Provider value={userKey}>
        <ActiveJobProgressContext.Provider value={RunningJobProgress}>
          <EntityPage model={model} />
        </ActiveJobProgressContext.Provider>
      </ColumnChoiceUserContext.Provider>
    </ReplaceSearchContext.Provider>
  );
}
