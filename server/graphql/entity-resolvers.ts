import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import type { RawQuery } from '../entities/list-query.ts';
import type { EntityOperations, OperationInput } from '../entities/operations/entity-operations.ts';
import type { FilterArgument } from '../entities/parse-filters.ts';
import { resolving } from './graphql-errors.ts';

export interface ResolverContext {
  request: FastifyRequest;
  /** For response headers (the rate-limit ones of sign-in); absent when a resolver runs outside a request. */
  reply?: FastifyReply;
}

type Args = Record<string, unknown>;
type Resolver = (root: unknown, args: Args, context: ResolverContext) => Promise<unknown>;

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
 * The GraphQL adapter of the entity operations (server/entities/operations/entity-operations.ts),
 * bound to the entity's generated operation names: each resolver turns its arguments into the
 * operation's input, as REST does with its query string, so both transports run the same access
 * check, input hygiene, list defaults and service hooks, and fail with the same status, message
 * and input errors (graphql-errors.ts puts them in `extensions`). A record's fields are named as
 * REST names them (`name`, not `data.name`): one error shape.
 */
export function entityResolvers(model: EntityModel, names: Record<string, string>, operations: EntityOperations): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const run = (operation: keyof EntityOperations, input: (args: Args) => OperationInput): Resolver =>
    (_root, args, { request }) => resolving(() => operations[operation]({ context: request.context, request }, input(args)));
  const list = (args: Args): OperationInput => ({ query: toRawQuery(args), filters: typedFilters(args) });

  const Query: Record<string, Resolver> = {
    [names.paginate]: run('paginate', list),
    [names.find]: run('find', list),
    [names.findOne]: (_root, args, { request }) =>
      resolving(async () => {
        try {
          return await operations.findOne({ context: request.context, request }, list(args));
        } catch (error) {
          // REST answers 404; GraphQL's findOne is nullable, so "nothing matched" is null.
          if ((error as { statusCode?: number }).statusCode === 404) return null;
          throw error;
        }
      }),
    [names.findById]: run('findById', (args) => ({ id: String(args.id) })),
    [names.findByIds]: run('findByIds', (args) => ({ ids: (args.ids as string[]).map(String) })),
    [names.search]: run('search', (args) => ({ query: { search: String(args.search ?? '') } })),
  };
  if (model.flags.exportable) Query[names.export] = run('export', list);
  const Mutation: Record<string, Resolver> = {};
  if (model.flags.creatable) Mutation[names.create] = run('create', (args) => ({ data: args.data }));
  if (model.flags.editable) Mutation[names.update] = run('update', (args) => ({ id: String(args.id), data: args.data }));
  if (model.flags.deletable) Mutation[names.delete] = run('delete', (args) => ({ id: String(args.id) }));
  return { Query, Mutation };
}
