import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { entityEndpointsOf, type EntityOperationName } from '../../contract/endpoints/entity-endpoints.ts';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import type { EntityExporter } from './entity-exporter.ts';
import type { EntityImporter } from './entity-importer.ts';
import type { EntityService } from './entity-service.ts';
import { bulkDelete } from './bulk-delete.ts';
import { routePermission } from './route-permission.ts';
import { MAX_LIMIT, parseListQuery, type RawQuery } from './list-query.ts';

export interface EntityRouteDeps {
  service: EntityService;
  exporter: EntityExporter;
  importer: EntityImporter;
}

/** Spec §9 defaults. */
const PAGINATE = { limit: 5, maxLimit: MAX_LIMIT, paged: true } as const;
const FIND = { limit: 100, maxLimit: MAX_LIMIT, paged: false } as const;

/**
 * Registers the REST endpoints of spec §7 for every `provider: generic` model under its
 * basePath. Nothing here knows any entity: behaviour comes from the model.
 */
export function registerEntityRoutes(app: FastifyInstance, models: readonly EntityModel[], deps: EntityRouteDeps): void {
  for (const model of models) {
    if (model.api.provider !== 'generic') continue;
    registerModelRoutes(app, model, deps);
  }
}

type RouteHandler = (request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply) => Promise<unknown>;

/**
 * One entity's routes: the endpoint table (contract/endpoints/entity-endpoints.ts: method, path,
 * permission action, model flag) says what is served, this table what each operation does. An
 * explicit object literal: an operation added to the contract without a handler fails to compile.
 */
function registerModelRoutes(app: FastifyInstance, model: EntityModel, { service, exporter, importer }: EntityRouteDeps): void {
  const entity = model.name;
  const runtime = service.runtime(entity);
  const list = (request: FastifyRequest) => parseListQuery(runtime, readQuery(request), FIND);
  const handlers: Record<EntityOperationName, RouteHandler> = {
    search: async (request) => service.find(entity, request.context, list(request)),
    find: async (request) => service.find(entity, request.context, list(request)),
    findOne: async (request) => service.findOne(entity, request.context, list(request)),
    export: async (request) => exporter.export(runtime, request.context, readQuery(request)),
    import: async (request) => importer.import(runtime, request),
    findByIds: async (request) => {
      const ids = request.params.ids.split(',').map((id) => id.trim()).filter((id) => id !== '');
      return service.findByIds(entity, request.context, ids);
    },
    findById: async (request) => service.findById(entity, request.context, request.params.id),
    paginate: async (request) => service.paginate(entity, request.context, parseListQuery(runtime, readQuery(request), PAGINATE)),
    create: async (request, reply) => {
      requireJson(request);
      reply.status(201);
      return service.create(entity, request.context, request.body);
    },
    update: async (request) => {
      requireJson(request);
      return service.update(entity, request.context, request.params.id, request.body);
    },
    delete: async (request, reply) => {
      await service.delete(entity, request.context, request.params.id);
      return reply.status(204).send();
    },
    bulkDelete: async (request) => {
      requireJson(request);
      return bulkDelete(service, runtime, request.context, request.body, request.log);
    },
  };
  // In the table's order: static segments before `/:id` (find-my-way would prefer them anyway).
  for (const [operation, endpoint] of entityEndpointsOf(model.flags)) {
    app.route<{ Params: Record<string, string> }>({
      method: endpoint.method,
      url: model.api.basePath + endpoint.path,
      config: { permission: routePermission(model, endpoint.action) },
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
