import { useMemo } from 'react';
import { Outlet } from 'react-router-dom';
import { RuntimeProvider } from '../../runtime/context/runtime-context.tsx';
import { PermissionsProvider } from '../../runtime/permissions/permissions-context.tsx';
import { useSessionState } from '../session/session.ts';
import { canFor } from './permissions.ts';
import { loadLanguage } from './i18n.ts';
import { services } from './services.ts';
import { CrudRoute } from './crud-route.tsx';
import type { EntityName } from '../generated/types.ts';
import { ConsoleFrame } from './navigation/console-frame.tsx';


// English is the fallback of Spanish texts (docs/product-rules.md#product): the console's many screens get it, the
// sign-in page does not wait for it.
loadLanguage('en').catch((error: unknown) => console.error(error));

/**
 * What the signed-in screens share and the public ones (sign-in, recovery, chat) do not: the
 * entity providers, transports, form loaders, overrides and permissions. One chunk, loaded with the
 * first signed-in screen (router.tsx), so the sign-in page ships without it.
 */
export function ConsoleScope({ framed = false }: { framed?: boolean }) {
  const { user } = useSessionState();
  const can = useMemo(() => canFor(user), [user]);
  return (
    <PermissionsProvider can={can}>
      <RuntimeProvider services={services}>
        {/* The default layout's screens get the sidebar, breadcrumbs and palette; the chat layout's do not. */}
        {framed ? <ConsoleFrame /> : <Outlet />}
      </RuntimeProvider>
    </PermissionsProvider>
  );
}

/** A /crud/* route by entity name: its model is looked up here, in the console's chunk. */
export function EntityCrudRoute({ entity }: { entity: EntityName }) {
  const model = services.entities[entity];
  if (!model) throw new Error(`No entity model "${entity}" in src/generated/entities.ts: run npm run generate`);
  return <CrudRoute model={model} />;
}
