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
import type { OperationCaller } from '../../operations/operation-caller.ts';
import { operationDefiner, type Operation } from '../../operations/define-operation.ts';

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

/** One entity's operations, keyed by the endpoint table's names (contract/endpoints/entity-endpoints.ts). */
export type EntityOperations = Readonly<Record<Exclude<EntityOperationName, 'paginate'>, Operation<OperationInput, unknown>>> & {
  readonly paginate: Operation<OperationInput, PageResult>;
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
  const definition = service.definition(entity);
  const define = operationDefiner(authorizer);
  const required = (operation: EntityOperationName) => [routePermission(model, ENTITY_ENDPOINTS[operation].action)];

  /** Input hygiene, after access (the definer checks it first): an unauthorised caller learns nothing about their input. */
  const clean = (input: OperationInput) => {
    const unusable = unusableTextIn(input.data === undefined ? [input.query ?? {}, input.filters ?? []] : [input.query ?? {}, input.filters ?? [], input.data]);
    if (unusable) throw unusable;
  };
  const listOf = (input: OperationInput, defaults: typeof PAGINATE | typeof FIND) => parseListQuery(definition, input.query ?? {}, defaults, input.filters);
  const idOf = (input: OperationInput) => {
    if (typeof input.id !== 'string' || input.id === '') throw badRequest('An id is required');
    return input.id;
  };
  /** One operation: the manifest's permission for its action, then hygiene, then the work. */
  const operation = <Output>(name: EntityOperationName, work: (caller: OperationCaller, input: OperationInput) => Promise<Output>) =>
    define<OperationInput, Output>(required(name), async (caller, input) => {
      clean(input);
      return work(caller, input);
    });

  return {
    search: operation('search', (caller, input) => service.find(entity, caller.context, listOf(input, FIND))),
    find: operation('find', (caller, input) => service.find(entity, caller.context, listOf(input, FIND))),
    findOne: operation('findOne', (caller, input) => service.findOne(entity, caller.context, listOf(input, FIND))),
    findByIds: operation('findByIds', (caller, input) => service.findByIds(entity, caller.context, [...(input.ids ?? [])])),
    findById: operation('findById', (caller, input) => service.findById(entity, caller.context, idOf(input))),
    paginate: operation('paginate', async (caller, input): Promise<PageResult> => {
      const query = listOf(input, PAGINATE);
      const page = await service.paginate(entity, caller.context, query);
      return { ...page, page: query.offset / query.limit + 1, limit: query.limit };
    }),
    export: operation('export', (caller, input) => exporter.export(definition, caller.context, input.query ?? {}, input.filters)),
    import: operation('import', async (caller) => {
      if (!caller.request) throw badRequest('An import reads an uploaded file: it needs the HTTP request');
      return importer.import(definition, caller.request);
    }),
    create: operation('create', (caller, input) => service.create(entity, caller.context, input.data)),
    update: operation('update', (caller, input) => service.update(entity, caller.context, idOf(input), input.data)),
    delete: operation('delete', async (caller, input) => {
      await service.delete(entity, caller.context, idOf(input));
      return true;
    }),
    bulkDelete: operation('bulkDelete', (caller, input) => bulkDelete(service, definition, caller.context, input.data, caller.request?.log)),
  };
}

/** Every generic entity's operations, by entity name (built once per server). */
export function createEntityOperations(models: readonly EntityModel[], deps: EntityOperationDeps): Readonly<Record<string, EntityOperations>> {
  return Object.fromEntries(models.filter((model) => model.api.endpoints === 'generic').map((model) => [model.name, entityOperations(model, deps)]));
}
