import { use, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { RuntimeContext } from '../../runtime/context/runtime-context.tsx';
import { PermissionsContext } from '../../runtime/permissions/permissions-context.tsx';
import { useSessionState } from '../session/session.ts';
import { canFor } from './permissions.ts';
import { loadLanguage } from './i18n.ts';
import { CrudRoute } from './crud-route.tsx';
import { liveModelLoaded, useLiveServices } from './live-model.ts';
import { crudRouteAccess } from './crud-route-access.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { NoPermissionPage } from './no-permission-page.tsx';
import type { EntityName } from '../generated/types.ts';
import { ConsoleFrame } from './navigation/console-frame.tsx';


// English is the fallback of Spanish texts (docs/product-rules.md#product): the console's many screens get it, the
// sign-in page does not wait for it.
loadLanguage('en').catch((error: unknown) => console.error(error));
// Whether the server serves a model changed since this build (src/app/live-model.ts): asked once,
// beside the first signed-in screen, which renders on the built model meanwhile.
void liveModelLoaded();

/**
 * What the signed-in screens share and the public ones (sign-in, recovery, chat) do not: the
 * entity clients, transports, form loaders, overrides and permissions. One chunk, loaded with the
 * first signed-in screen (router.tsx), so the sign-in page ships without it.
 */
export function SignedInConsole({ framed = false }: { framed?: boolean }) {
  const { user } = useSessionState();
  const can = useMemo(() => canFor(user), [user]);
  const services = useLiveServices();
  return (
    <PermissionsContext value={can}>
      <RuntimeContext value={services}>
        {/* The default layout's screens get the sidebar, breadcrumbs and palette; the chat layout's do not. */}
        {framed ? <ConsoleFrame /> : <Outlet />}
      </RuntimeContext>
    </PermissionsContext>
  );
}

/** A /crud/* route by entity name: its model is looked up here, in the console's chunk. */
export function EntityCrudRoute({ entity }: { entity: EntityName }) {
  const model = useLiveServices().entities[entity];
  if (!model) throw new Error(`No entity model "${entity}" in src/generated/entities.ts: run npm run generate`);
  return <CrudRoute model={model} />;
}

/**
 * /crud/:page for a page this build does not know: an entity the schema studio added and the
 * server applied live (src/app/live-model.ts). Waits for the server's answer, then renders it as
 * any CRUD page, with the same access rule; otherwise not found.
 */
export function LiveEntityCrudRoute() {
  use(liveModelLoaded());
  const { pathname } = useLocation();
  const { user } = useSessionState();
  const { entities } = useLiveServices();
  const model = Object.values(entities).find((candidate) => candidate.route?.path === pathname.replace(/\/+$/, ''));
  if (!model) return <NotFoundPage />;
  const can = canFor(user);
  if (!crudRouteAccess(model).some((permission) => can(permission))) return <NoPermissionPage />;
  return <CrudRoute model={model} />;
}
