import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { EntityExporter } from '../entities/entity-exporter.ts';
import { MAX_LIMIT, parseListQuery, type RawQuery } from '../entities/list-query.ts';
import { routePermission } from '../entities/route-permission.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import type { Enforce } from '../http/authorize-route.ts';
import type { FilterArgument } from '../entities/parse-filters.ts';
import { unusableTextIn } from '../http/reject-nul-bytes.ts';
import { resolving } from './graphql-errors.ts';

export interface ResolverContext {
  request: FastifyRequest;
  /** For response headers (the rate-limit ones of sign-in); absent when a resolver runs outside a request. */
  reply?: FastifyReply;
}

type Args = Record<string, unknown>;
type Resolver = (root: unknown, args: Args, context: ResolverContext) => Promise<unknown>;

const PAGINATE = { limit: 5, maxLimit: MAX_LIMIT, paged: true } as const;
const FIND = { limit: 100, maxLimit: MAX_LIMIT, paged: false } as const;

/**
 * GraphQL's scalar arguments in the REST query form, so both transports share one parser and one
 * set of rules (allowed sort and filter fields, limits) and fail with the same messages. Filters
 * stay typed (`typedFilters`): joined into REST's `a;eq;b|...` string, a value holding `|` or `;`
 * would be cut in two.
 */
function toRawQuery(args: Args): RawQuery {
  const raw: RawQuery = {};
  for (const key of ['page', 'limit', 'orderBy', 'order', 'search', 'format', 'separator'] as const) {
    if (args[key] !== undefined && args[key] !== null) raw[key] = String(args[key]);
  }
  if (Array.isArray(args.headers)) raw.headers = (args.headers as string[]).join(',');
  return raw;
}

/** GraphQL's FilterInput list (field, operator, JSON value), or undefined when none was sent. */
function typedFilters(args: Args): FilterArgument[] | undefined {
  return Array.isArray(args.filters) ? (args.filters as FilterArgument[]) : undefined;
}

/**
 * Generic resolvers of one entity, bound to its generated operation names. Reads and writes call
 * the entity service with the caller's context, after the same permission check as the REST
 * route: every rule of the entity (access rules, API-key secrets, ...) is a lifecycle hook of the
 * service (server/entities/README.md), so GraphQL runs them without a copy, and fails with the
 * same status, message and input errors (graphql-errors.ts puts them in `extensions`).
 */
export function entityResolvers(
  model: EntityModel,
  names: Record<string, string>,
  deps: { service: EntityService; exporter: EntityExporter; enforce: Enforce },
): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const { service, exporter, enforce } = deps;
  const entity = model.name;
  const runtime = service.runtime(entity);
  const guarded = (action: RoutePermission['action'], work: (request: FastifyRequest, args: Args) => Promise<unknown>): Resolver =>
    (_root, args, { request }) => resolving(async () => {
      await enforce(request, routePermission(model, action));
      // A GraphQL string literal may spell U+0000 as "\u0000", which the HTTP body check cannot see.
      // A record's fields are named as REST names them (`name`, not `data.name`): one error shape.
      const { data, ...others } = args as Record<string, unknown>;
      const unusable = unusableTextIn(data === undefined ? [others] : [others, data]);
      if (unusable) throw unusable;
      return work(request, args);
    });

  const Query: Record<string, Resolver> = {
    [names.paginate]: guarded('view', async (request, args) => {
      const query = parseListQuery(runtime, toRawQuery(args), PAGINATE, typedFilters(args));
      const page = await service.paginate(entity, request.context, query);
      return { ...page, page: query.offset / query.limit + 1, limit: query.limit };
    }),
    [names.find]: guarded('view', (request, args) => service.find(entity, request.context, parseListQuery(runtime, toRawQuery(args), FIND, typedFilters(args)))),
    [names.findOne]: guarded('view', async (request, args) => {
      try {
        return await service.findOne(entity, request.context, parseListQuery(runtime, toRawQuery(args), FIND, typedFilters(args)));
      } catch (error) {
        // REST answers 404; GraphQL's findOne is nullable, so "nothing matched" is null.
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    }),
    [names.findById]: guarded('view', (request, args) => service.findById(entity, request.context, String(args.id))),
    [names.findByIds]: guarded('view', (request, args) => service.findByIds(entity, request.context, (args.ids as string[]).map(String))),
    [names.search]: guarded('view', (request, args) =>
      service.find(entity, request.context, parseListQuery(runtime, { search: String(args.search ?? '') }, FIND))),
  };
  if (model.flags.exportable) {
    Query[names.export] = guarded('view', (request, args) => exporter.export(runtime, request.context, toRawQuery(args), typedFilters(args)));
  }
  const Mutation: Record<string, Resolver> = {};
  if (model.flags.creatable) Mutation[names.create] = guarded('create', (request, args) => service.create(entity, request.context, args.data));
  if (model.flags.editable) {
    Mutation[names.update] = guarded('update', (request, args) => service.update(entity, request.context, String(args.id), args.data));
  }
  if (model.flags.deletable) {
    Mutation[names.delete] = guarded('delete', async (request, args) => {
      await service.delete(entity, request.context, String(args.id));
      return true;
    });
  }
  return { Query, Mutation };
}
