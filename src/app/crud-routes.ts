import { generatedRoutes } from '../generated/routes.ts';
import { entities } from '../generated/entities.ts';

/** The generated /crud/* routes with their entity models. */
export const crudRoutes = generatedRoutes
  .filter((route) => route.path.startsWith('/crud/'))
  .map((route) => {
    const model = entities[route.entity];
    if (!model) throw new Error(`Route ${route.path} names unknown entity "${route.entity}"`);
    return { ...route, model };
  });
