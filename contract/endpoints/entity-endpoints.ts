import type { EntityAction } from '../permissions/entity-access.ts';

/**
 * The REST endpoints of every generic entity, in one table read by the server (which routes it
 * registers and the permission each checks), the console's REST transport (the URL of each
 * operation), the OpenAPI document and the tests. Paths are relative to the entity's basePath
 * (`/api/bots`), with Fastify's `:param` syntax. Code under contract/ may import nothing from
 * server/, src/ or runtime/.
 */
export type EntityOperationName = 'search' | 'find' | 'findOne' | 'export' | 'import' | 'findByIds' | 'findById' | 'paginate' | 'create' | 'update' | 'delete' | 'bulkDelete';

export interface EntityEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to the entity's basePath; '' is the basePath itself. */
  path: string;
  /** The entity permission the server checks (contract/permissions/entity-access.ts). */
  action: EntityAction;
  /** The model flag without which the entity does not serve it (none: always served). */
  flag?: EntityFlag;
}

export type EntityFlag = 'creatable' | 'editable' | 'deletable' | 'exportable' | 'importable';

/**
 * In registration order: static segments before `/:id`, so the order documents which wins
 * (find-my-way would prefer them anyway).
 */
export const ENTITY_ENDPOINTS: Readonly<Record<EntityOperationName, EntityEndpoint>> = {
  search: { method: 'GET', path: '/search', action: 'view' },
  find: { method: 'GET', path: '/find', action: 'view' },
  findOne: { method: 'GET', path: '/find-one', action: 'view' },
  export: { method: 'GET', path: '/export', action: 'view', flag: 'exportable' },
  import: { method: 'POST', path: '/import', action: 'create', flag: 'importable' },
  // Each record is still deleted (and permission-checked) one by one: contract/endpoints/bulk-delete.ts.
  bulkDelete: { method: 'POST', path: '/bulk-delete', action: 'delete', flag: 'deletable' },
  findByIds: { method: 'GET', path: '/ids/:ids', action: 'view' },
  findById: { method: 'GET', path: '/:id', action: 'view' },
  paginate: { method: 'GET', path: '', action: 'view' },
  create: { method: 'POST', path: '', action: 'create', flag: 'creatable' },
  update: { method: 'PUT', path: '/:id', action: 'update', flag: 'editable' },
  delete: { method: 'DELETE', path: '/:id', action: 'delete', flag: 'deletable' },
};

/** The endpoints an entity with these flags serves, in registration order. */
export function entityEndpointsOf(flags: Readonly<Record<EntityFlag, boolean>>): Array<[EntityOperationName, EntityEndpoint]> {
  return (Object.entries(ENTITY_ENDPOINTS) as Array<[EntityOperationName, EntityEndpoint]>).filter(([, endpoint]) => !endpoint.flag || flags[endpoint.flag]);
}

/**
 * The URL of one operation: basePath + the endpoint's path with each `:param` replaced by its
 * value, URI-encoded (a list, as `:ids` takes, is encoded item by item and comma-joined).
 * A missing parameter is a programming error and throws, naming it.
 */
export function entityEndpointUrl(basePath: string, operation: EntityOperationName, params: Readonly<Record<string, string | readonly string[]>> = {}): string {
  const path = ENTITY_ENDPOINTS[operation].path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`entityEndpointUrl: ${operation} needs the parameter "${name}" (${basePath}${ENTITY_ENDPOINTS[operation].path})`);
    return typeof value === 'string' ? encodeURIComponent(value) : value.map(encodeURIComponent).join(',');
  });
  return basePath + path;
}
