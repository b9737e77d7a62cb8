import type { FastifyInstance } from 'fastify';
import mercurius from 'mercurius';
import mercuriusUpload from 'mercurius-upload';
import { GraphQLUpload } from 'graphql-upload-minimal';
import { GraphQLError, GraphQLScalarType, Kind, type ValidationContext, type ValueNode } from 'graphql';
import { createComplexityRule } from 'graphql-query-complexity';
import type { FeatureDependencies } from '../http/server-features.ts';
import { entityResolvers } from './entity-resolvers.ts';
import { unusableTextError } from '../http/reject-nul-bytes.ts';
import { toGraphqlError } from './graphql-errors.ts';
import { documentBoundsError } from './document-bounds.ts';
import { createIdentityOperations } from '../identity/identity-operations.ts';
import { identityResolvers, identityTypeDefs } from './identity-resolvers.ts';
import { alreadyRefused, costEstimator, fieldCountRule, GRAPHQL_MAX_COST, limitError, reportLimit, rootOperationKinds, tooCostlyError } from './query-limits.ts';

/**
 * Limits that keep a hostile query from exhausting the server (query-limits.ts): nesting depth,
 * root fields and aliases, and a cost that counts every field of every row a list may return.
 */
export const GRAPHQL_MAX_DEPTH = 8;
export const GRAPHQL_MAX_COMPLEXITY = GRAPHQL_MAX_COST;
/** Selections the cost rule walks at most (fragments expanded), before it gives up and refuses. */
const GRAPHQL_MAX_NODES = 5_000;

function missing(entity: string): never {
  throw new Error(`GraphQL's identity mutations need the generic operations of "${entity}" (manifests/${entity}.json, api.endpoints "generic")`);
}

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING: case Kind.ENUM: return node.value;
    case Kind.INT: return Number.parseInt(node.value, 10);
    case Kind.FLOAT: return Number.parseFloat(node.value);
    case Kind.BOOLEAN: return node.value;
    case Kind.NULL: return null;
    case Kind.LIST: return node.values.map(literal);
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((field) => [field.name.value, literal(field.value)]));
    default: return undefined;
  }
}

const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (filter values, settings values).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});

/**
 * POST /graphql: the generic entities (schema generated from the manifests) plus identity
 * operations. GraphiQL and introspection are on unless GRAPHQL_INTROSPECTION=false.
 */
export async function graphqlFeature(app: FastifyInstance, deps: FeatureDependencies): Promise<void> {
  const Query: Record<string, unknown> = {};
  const Mutation: Record<string, unknown> = {};
  for (const [entity, names] of Object.entries(deps.graphql.operationNames)) {
    const model = deps.entities[entity];
    if (!model) continue;
    const resolvers = entityResolvers(model, names, deps.operations[entity]);
    Object.assign(Query, resolvers.Query);
    Object.assign(Mutation, resolvers.Mutation);
  }
  const identity = identityResolvers({
    maxUploadBytes: deps.config.maxUploadBytes,
    operations: createIdentityOperations(deps, app.log),
    userApiKey: deps.operations.userApiKey ?? missing('userApiKey'),
    uploadFile: deps.uploadFile,
  });
  Object.assign(Query, identity.Query);
  Object.assign(Mutation, identity.Mutation);
  const introspection = (await deps.effectiveConfig()).graphqlIntrospection;
  const estimator = costEstimator(rootOperationKinds(deps.graphql.operationNames));

  // Own encapsulated context: GraphQL multipart requests (uploads) need their own body parser,
  // while the REST routes keep @fastify/multipart's.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('multipart/form-data');
    // The server-wide NUL check (server/http/reject-nul-bytes.ts) leaves /graphql to this one, so
    // the refusal arrives as a GraphQL error with the error shape in its extensions.
    scope.addHook('preValidation', async (request) => {
      if (request.routeOptions.url !== '/graphql') return; // GraphiQL's static files read no input
      const unusable = unusableTextError(request);
      if (unusable) throw toGraphqlError(unusable, 400);
      // GraphQL over HTTP: "extensions": null is the same as no extensions (mercurius's schema wants an object).
      for (const item of Array.isArray(request.body) ? request.body : [request.body]) {
        if (item && typeof item === 'object' && (item as { extensions?: unknown }).extensions === null) delete (item as { extensions?: unknown }).extensions;
      }
      const bounds = documentBoundsError(request);
      if (bounds) throw toGraphqlError(bounds, 400);
    });
    // busboy 1 (graphql-upload-minimal's) marks a file of exactly maxFileSize bytes truncated,
    // where REST's @fastify/busboy accepts it: one byte more, so both take MAX_UPLOAD_BYTES whole
    // and refuse a byte over it (a truncated stream is a 413: graphql-upload.ts, file-routes.ts).
    await scope.register(mercuriusUpload, { maxFileSize: deps.config.maxUploadBytes + 1, maxFiles: 1 });
    await scope.register(mercurius, {
      schema: `${deps.graphql.typeDefs}\n${identityTypeDefs}`,
      resolvers: { JSON: JsonScalar, Upload: GraphQLUpload, Query, Mutation } as never,
      path: '/graphql',
      graphiql: introspection,
      queryDepth: GRAPHQL_MAX_DEPTH,
    // The cost rule reads each request's variables, which mercurius only allows without its query cache.
    cache: false,
      context: (request, reply) => ({ request, reply }),
      validationRules: ({ variables, operationName }) => {
        const complexity = createComplexityRule({
          maximumComplexity: GRAPHQL_MAX_COMPLEXITY,
          variables,
          operationName,
          maxQueryNodes: GRAPHQL_MAX_NODES,
          estimators: [estimator],
          createError: tooCostlyError,
        });
        // The cost rule reports in the operation's leave handler; after another limit refused the
        // query, it stays silent (one error, so the answer is a 400).
        // The library throws (instead of reporting) past maxQueryNodes: report it as a refusal.
        const guardedComplexity = (context: ValidationContext) => {
          const visitor = complexity(reportingOnce(context)) as unknown as Record<string, unknown>;
          return wrapThrows(visitor, context);
        };
        const rules = [fieldCountRule, guardedComplexity];
        if (!introspection) rules.push(disableIntrospection as never);
        return rules;
      },
    });
  });
}

/**
 * Each handler of the cost rule's visitor, with a thrown error (past maxQueryNodes) reported as a
 * 400 instead of escaping, and nothing run once another limit refused the query.
 */
function wrapThrows(visitor: Record<string, unknown>, context: ValidationContext): Record<string, unknown> {
  const guard = (fn: (...args: unknown[]) => unknown) => (...args: unknown[]) => {
    if (alreadyRefused(context)) return undefined;
    try {
      return fn.apply(visitor, args);
    } catch (error) {
      reportLimit(context, limitError(`Query too large: ${(error as Error).message}`, 'error.graphql.tooCostly'));
      return undefined;
    }
  };
  const wrapped: Record<string, unknown> = {};
  for (const [key, handler] of Object.entries(visitor)) {
    if (typeof handler === 'function') wrapped[key] = guard(handler as (...args: unknown[]) => unknown);
    else if (handler && typeof handler === 'object') {
      const { enter, leave } = handler as { enter?: (...args: unknown[]) => unknown; leave?: (...args: unknown[]) => unknown };
      wrapped[key] = { ...(enter ? { enter: guard(enter) } : {}), ...(leave ? { leave: guard(leave) } : {}) };
    } else wrapped[key] = handler;
  }
  return wrapped;
}

/** The validation context with its reportError going through reportLimit (one refusal per request). */
function reportingOnce(context: ValidationContext): ValidationContext {
  return new Proxy(context, {
    get: (target, property) =>
      property === 'reportError' ? (error: GraphQLError) => reportLimit(target, error) : Reflect.get(target, property, target),
  });
}

function disableIntrospection(context: ValidationContext) {
  return {
    Field(node: { name: { value: string } }) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        context.reportError(new GraphQLError('Introspection is disabled on this server'));
      }
    },
  };
}
