import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityModel } from '../../generator/model/entity-model.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import type { EntityExporter } from './entity-exporter.ts';
import type { EntityImporter } from './entity-importer.ts';
import type { EntityService } from './entity-service.ts';
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

function registerModelRoutes(app: FastifyInstance, model: EntityModel, { service, exporter, importer }: EntityRouteDeps): void {
  const base = model.api.basePath;
  const entity = model.name;
  const runtime = service.runtime(entity);
  const permission = (action: RoutePermission['action']): { permission: RoutePermission } => ({
    permission: routePermission(model, action),
  });
  const view = permission('view');

  // Static segments first (find-my-way would prefer them anyway; the order documents intent).
  app.get(`${base}/search`, { config: view }, async (request) => {
    const query = readQuery(request);
    return service.find(entity, request.context, parseListQuery(runtime, query, FIND));
  });
  app.get(`${base}/find`, { config: view }, async (request) =>
    service.find(entity, request.context, parseListQuery(runtime, readQuery(request), FIND)),
  );
  app.get(`${base}/find-one`, { config: view }, async (request) =>
    service.findOne(entity, request.context, parseListQuery(runtime, readQuery(request), FIND)),
  );
  if (model.flags.exportable) {
    app.get(`${base}/export`, { config: view }, async (request) => exporter.export(runtime, request.context, readQuery(request)));
  }
  if (model.flags.importable) {
    app.post(`${base}/import`, { config: permission('create') }, async (request) => importer.import(runtime, request));
  }
  app.get<{ Params: { ids: string } }>(`${base}/ids/:ids`, { config: view }, async (request) => {
    const ids = request.params.ids.split(',').map((id) => id.trim()).filter((id) => id !== '');
    return service.findByIds(entity, request.context, ids);
  });
  app.get<{ Params: { id: string } }>(`${base}/:id`, { config: view }, async (request) =>
    service.findById(entity, request.context, request.params.id),
  );
  app.get(base, { config: view }, async (request) =>
    service.paginate(entity, request.context, parseListQuery(runtime, readQuery(request), PAGINATE)),
  );
  if (model.flags.creatable) {
    app.post(base, { config: permission('create') }, async (request, reply) => {
      requireJson(request);
      reply.status(201);
      return service.create(entity, request.context, request.body);
    });
  }
  if (model.flags.editable) {
    app.put<{ Params: { id: string } }>(`${base}/:id`, { config: permission('update') }, async (request) => {
      requireJson(request);
      return service.update(entity, request.context, request.params.id, request.body);
    });
  }
  if (model.flags.deletable) {
    app.delete<{ Params: { id: string } }>(`${base}/:id`, { config: permission('delete') }, async (request, reply) => {
      await service.delete(entity, request.context, request.params.id);
      return reply.status(204).send();
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
