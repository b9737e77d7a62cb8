import { generatedRoutes } from '../generated/routes.ts';
import { entityAccess } from '../generated/entity-access.ts';

/**
 * The generated /crud/* routes with who may open them. Their entity models (the large generated
 * entities module) are the signed-in console's chunk to load, not the entry's (signed-in-console.tsx).
 */
export const crudRoutes = generatedRoutes
  .filter((route) => route.path.startsWith('/crud/'))
  .map((route) => {
    const access = entityAccess[route.entity];
    if (!access) throw new Error(`Route ${route.path} names unknown entity "${route.entity}"`);
    return { ...route, access };
  });
