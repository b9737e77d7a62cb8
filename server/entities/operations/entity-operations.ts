import type { EntityOperationName } from '../../../contract/endpoints/entity-endpoints.ts';
import { ENTITY_ENDPOINTS } from '../../../contract/endpoints/entity-endpoints.ts';
import type { EntityModel } from '../../../contract/model/entity-model.ts';
import type { Authorizer } from '../../http/authorizer.ts';
import { badRequest } from '../../http/http-error.ts';
import { unusableTextIn } from '../../http/reject-nul-bytes.ts';
import type { EntityExporter } from '../entity-exporter.ts';
import type { EntityImporter } from '../entity-importer.ts';
import type { EntityRecord, EntityService } from '../entity-service.ts';
import { MAX_LIMIT, parseListQuery, type RawQuery } from '../list-query.ts';
import type { FilterArgument } from '../parse-filters.ts';
import { routePermission } from '../route-permission.ts';
import { bulkDelete } from '../bulk-delete.ts';
import { authorizeOperation } from './authorize-operation.ts';
import type { OperationCaller } from './operation-caller.ts';

/** What a transport hands an operation, already read from its own wire format. */
export interface OperationInput {
  /** List, search and export parameters, as strings (REST's query string, GraphQL's scalars). */
  query?: RawQuery;
  /** Typed filters (GraphQL's FilterInput list); REST sends them in `query.filters`. */
  filters?: readonly FilterArgument[];
  id?: string;
  ids?: readonly string[];
  /** A record to create, or the changes of an update. */
  data?: unknown;
}

/** The paginated list's page and size as read, for transports that echo them (GraphQL). */
export interface PageResult {
  items: EntityRecord[];
  total: number;
  page: number;
  limit: number;
}

type Operation = (caller: OperationCaller, input: OperationInput) => Promise<unknown>;

/** One entity's operations, keyed by the endpoint table's names (contract/endpoints/entity-endpoints.ts). */
export type EntityOperations = Readonly<Record<Exclude<EntityOperationName, 'paginate'>, Operation>> & {
  readonly paginate: (caller: OperationCaller, input: OperationInput) => Promise<PageResult>;
};

export interface EntityOperationDeps {
  service: EntityService;
  exporter: EntityExporter;
  importer: EntityImporter;
  authorizer: Authorizer;
}

/** Product defaults (docs/product-rules.md#calls): a page of 5, a find of 100. */
const PAGINATE = { limit: 5, maxLimit: MAX_LIMIT, paged: true } as const;
const FIND = { limit: 100, maxLimit: MAX_LIMIT, paged: false } as const;

/**
 * The generic operations of one entity, as Payload's collection operations are: each one checks
 * the caller's access (the manifest's permission for its action, through the authorizer), refuses
 * unusable text (NUL bytes, lone surrogates, wherever the transport read them from), applies the
 * list defaults, then runs the entity service, whose hooks and transaction do the rest. REST
 * (entity-routes.ts) and GraphQL (server/graphql/entity-resolvers.ts) only translate their wire
 * format to an OperationInput and the result back: a new transport does the same and inherits
 * every rule. Features acting on their own behalf call EntityService with system() instead.
 */
export function entityOperations(model: EntityModel, deps: EntityOperationDeps): EntityOperations {
  const { service, exporter, importer, authorizer } = deps;
  const entity = model.name;
  const runtime = service.runtime(entity);
  const required = Object.fromEntries(Object.entries(ENTITY_ENDPOINTS).map(([name, endpoint]) => [name, routePermission(model, endpoint.action)])) as Record<EntityOperationName, ReturnType<typeof routePermission>>;

  /** Access first, then input hygiene: an unauthorised caller learns nothing about their input. */
  const admit = async (operation: EntityOperationName, caller: OperationCaller, input: OperationInput) => {
    await authorizeOperation(authorizer, caller, required[operation]);
    const unusable = unusableTextIn(input.data === undefined ? [input.query ?? {}, input.filters ?? []] : [input.query ?? {}, input.filters ?? [], input.data]);
    if (unusable) throw unusable;
  };
  const listOf = (input: OperationInput, defaults: typeof PAGINATE | typeof FIND) => parseListQuery(runtime, input.query ?? {}, defaults, input.filters);
  const idOf = (input: OperationInput) => {
    if (typeof input.id !== 'string' || input.id === '') throw badRequest('An id is required');
    return input.id;
  };

  return {
    async search(caller, input) {
      await admit('search', caller, input);
      return service.find(entity, caller.context, listOf(input, FIND));
    },
    async find(caller, input) {
      await admit('find', caller, input);
      return service.find(entity, caller.context, listOf(input, FIND));
    },
    async findOne(caller, input) {
      await admit('findOne', caller, input);
      return service.findOne(entity, caller.context, listOf(input, FIND));
    },
    async findByIds(caller, input) {
      await admit('findByIds', caller, input);
      return service.findByIds(entity, caller.context, [...(input.ids ?? [])]);
    },
    async findById(caller, input) {
      await admit('findById', caller, input);
      return service.findById(entity, caller.context, idOf(input));
    },
    async paginate(caller, input) {
      await admit('paginate', caller, input);
      const query = listOf(input, PAGINATE);
      const page = await service.paginate(entity, caller.context, query);
      return { ...page, page: query.offset / query.limit + 1, limit: query.limit };
    },
    async export(caller, input) {
      await admit('export', caller, input);
      return exporter.export(runtime, caller.context, input.query ?? {}, input.filters);
    },
    async import(caller, input) {
      await admit('import', caller, input);
      if (!caller.request) throw badRequest('An import reads an uploaded file: it needs the HTTP request');
      return importer.import(runtime, caller.request);
    },
    async create(caller, input) {
      await admit('create', caller, input);
      return service.create(entity, caller.context, input.data);
    },
    async update(caller, input) {
      await admit('update', caller, input);
      return service.update(entity, caller.context, idOf(input), input.data);
    },
    async delete(caller, input) {
      await admit('delete', caller, input);
      await service.delete(entity, caller.context, idOf(input));
      return true;
    },
    async bulkDelete(caller, input) {
      await admit('bulkDelete', caller, input);
      return bulkDelete(service, runtime, caller.context, input.data, caller.request?.log);
    },
  };
}

/** Every generic entity's operations, by entity name (built once per server). */
export function createEntityOperations(models: readonly EntityModel[], deps: EntityOperationDeps): Readonly<Record<string, EntityOperations>> {
  return Object.fromEntries(models.filter((model) => model.api.provider === 'generic').map((model) => [model.name, entityOperations(model, deps)]));
}
