import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { entityEndpointsOf, type EntityOperationName } from '../../contract/endpoints/entity-endpoints.ts';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import type { EntityOperations } from './operations/entity-operations.ts';
import { callerOf } from '../operations/operation-caller.ts';
import type { RawQuery } from './list-query.ts';

/**
 * The REST adapter of the entity operations (operations/entity-operations.ts): for every
 * `endpoints: generic` model, the endpoints of the contract's table under its basePath, each
 * reading its input from the URL, query string and JSON body and answering with the operation's
 * result. Access, input hygiene and list defaults are the operation's: nothing here decides them.
 */
export function registerEntityRoutes(app: FastifyInstance, models: readonly EntityModel[], operations: Readonly<Record<string, EntityOperations>>): void {
  for (const model of models) {
    if (model.api.endpoints !== 'generic') continue;
    registerModelRoutes(app, model, operations[model.name]);
  }
}

type RouteRequest = FastifyRequest<{ Params: Record<string, string> }>;
type RouteHandler = (request: RouteRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * One entity's routes. An explicit object literal keyed by the contract's operation names: an
 * operation added to the contract without a route here fails to compile.
 */
function registerModelRoutes(app: FastifyInstance, model: EntityModel, operations: EntityOperations): void {
  const caller = (request: FastifyRequest) => callerOf(request);
  const query = (name: EntityOperationName): RouteHandler => async (request) => operations[name](caller(request), { query: readQuery(request) });
  const handlers: Record<EntityOperationName, RouteHandler> = {
    search: query('search'),
    find: query('find'),
    findOne: query('findOne'),
    export: query('export'),
    import: async (request) => operations.import(caller(request), {}),
    findByIds: async (request) => {
      const ids = request.params.ids.split(',').map((id) => id.trim()).filter((id) => id !== '');
      return operations.findByIds(caller(request), { ids });
    },
    findById: async (request) => operations.findById(caller(request), { id: request.params.id }),
    paginate: async (request) => {
      const { items, total } = await operations.paginate(caller(request), { query: readQuery(request) });
      return { items, total };
    },
    create: async (request, reply) => {
      requireJson(request);
      const record = await operations.create(caller(request), { data: request.body });
      reply.status(201);
      return record;
    },
    update: async (request) => {
      requireJson(request);
      return operations.update(caller(request), { id: request.params.id, data: request.body });
    },
    delete: async (request, reply) => {
      await operations.delete(caller(request), { id: request.params.id });
      return reply.status(204).send();
    },
    bulkDelete: async (request) => {
      requireJson(request);
      return operations.bulkDelete(caller(request), { data: request.body });
    },
  };
  for (const [operation, endpoint] of entityEndpointsOf(model.flags)) {
    app.route<{ Params: Record<string, string> }>({
      method: endpoint.method,
      url: model.api.basePath + endpoint.path,
      // Listed for the route list, OpenAPI and the anonymous-body bound; the operation checks it.
      config: { operation: operations[operation] },
      handler: handlers[operation],
    });
  }
}

/** Entity bodies are JSON; a multipart or other body is the wrong media type, not bad input. */
function requireJson(request: FastifyRequest): void {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpError(415, `Expected an application/json body; got "${type || 'no content type'}"`);
  }
}

/** Query parameters as single strings; a repeated parameter is ambiguous, so a 400. */
function readQuery(request: FastifyRequest): RawQuery {
  const out: RawQuery = {};
  for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) throw badRequest(`Query parameter "${key}" was given more than once`);
    out[key] = value === undefined ? undefined : String(value);
  }
  return out;
}
