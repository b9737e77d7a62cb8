import type { FastifyInstance } from 'fastify';
import mercurius from 'mercurius';
import mercuriusUpload from 'mercurius-upload';
import { GraphQLUpload } from 'graphql-upload-minimal';
import { GraphQLError, GraphQLScalarType, Kind, type ValidationContext, type ValueNode } from 'graphql';
import { createComplexityRule, simpleEstimator } from 'graphql-query-complexity';
import { entityOperationNames, entityTypeDefs } from '../generated/graphql.ts';
import type { FeatureDependencies } from '../http/server-features.ts';
import { entityResolvers } from './entity-resolvers.ts';
import { identityResolvers, identityTypeDefs } from './identity-resolvers.ts';

/**
 * Limits that keep a hostile query from exhausting the server: nesting depth, and a cost of one per
 * selected field (aliases and fragments included), so a query cannot fan out into thousands of fields.
 */
export const GRAPHQL_MAX_DEPTH = 8;
export const GRAPHQL_MAX_COMPLEXITY = 5_000;

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
  const exporter = deps.exporter;
  const Query: Record<string, unknown> = {};
  const Mutation: Record<string, unknown> = {};
  for (const [entity, names] of Object.entries(entityOperationNames)) {
    const model = deps.entities[entity];
    if (!model) continue;
    const resolvers = entityResolvers(model, names, { service: deps.service, exporter, enforce: deps.enforce, app });
    Object.assign(Query, resolvers.Query);
    Object.assign(Mutation, resolvers.Mutation);
  }
  const identity = identityResolvers(app, deps.config.maxUploadBytes);
  Object.assign(Query, identity.Query);
  Object.assign(Mutation, identity.Mutation);
  const introspection = process.env.GRAPHQL_INTROSPECTION !== 'false';

  // Own encapsulated context: GraphQL multipart requests (uploads) need their own body parser,
  // while the REST routes keep @fastify/multipart's.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('multipart/form-data');
    await scope.register(mercuriusUpload, { maxFileSize: deps.config.maxUploadBytes, maxFiles: 1 });
    await scope.register(mercurius, {
      schema: `${entityTypeDefs}\n${identityTypeDefs}`,
      resolvers: { JSON: JsonScalar, Upload: GraphQLUpload, Query, Mutation } as never,
      path: '/graphql',
      graphiql: introspection,
      queryDepth: GRAPHQL_MAX_DEPTH,
    // The cost rule reads each request's variables, which mercurius only allows without its query cache.
    cache: false,
      context: (request) => ({ request }),
      validationRules: ({ variables, operationName }) => {
        const rules = [
          createComplexityRule({
            maximumComplexity: GRAPHQL_MAX_COMPLEXITY,
            variables,
            operationName,
            estimators: [simpleEstimator({ defaultComplexity: 1 })],
            createError: (max, actual) => new GraphQLError(`Query too complex: cost ${actual}, at most ${max}`, { extensions: { status: 400 } }),
          }),
        ];
        if (!introspection) rules.push(disableIntrospection as never);
        return rules;
      },
    });
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
