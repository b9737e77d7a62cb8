import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyCors from '@fastify/cors';
import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import { loadEnvironmentDefaults, loadFeatureConfig, type EnvironmentDefaults, type ServerConfig } from '../config.ts';
import { createEffectiveConfigReader } from '../config/create-effective-config-reader.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrateEntities } from '../db/migrate-entities.ts';
import { createOwnedTables } from '../db/owned-tables.ts';
import { entities as generatedEntities } from '../generated/entities.ts';
import { schemas as generatedSchemas, type EntitySchemas } from '../generated/schemas.ts';
import { entityOperationNames, entityTypeDefs } from '../generated/graphql.ts';
import { createEntityAjv } from '../entities/ajv-instance.ts';
import { registerEntityRoutes } from '../entities/entity-routes.ts';
import { createEntityOperations } from '../entities/operations/entity-operations.ts';
import { defineEntities } from '../entities/entity-definition.ts';
import { EntityService } from '../entities/entity-service.ts';
import { createFileServices } from '../files/file-services.ts';
import { createCoordination } from '../db/coordination/create-coordination.ts';
import { createJobQueue } from '../jobs/create-job-queue.ts';
import { createFileUploader, registerFileRoutes } from '../files/file-routes.ts';
import { readOrCreateSecret } from '../identity/secret-store.ts';
import { createIdentity, type Identity } from '../identity/create-identity.ts';
import { createCredentialLimits } from '../identity/credential-limits.ts';
import { DEFAULT_ANONYMOUS_PER_MINUTE, type IdentityConfig } from '../identity/identity-config.ts';
import { permissionAuthorizer } from '../identity/permission-authorizer.ts';
import { seedDatabase } from '../seed/seed-database.ts';
import { settingsStoreFor } from '../settings/settings-store.ts';
import { registerRouteAuthorization, type RouteAccess } from './authorize-route.ts';
import { operationDefiner } from '../operations/define-operation.ts';
import type { Authorizer } from './authorizer.ts';
import { drainUnreadBodies } from './drain-unread-body.ts';
import { registerGracefulClose, type GracefulClose } from './graceful-close.ts';
import { clientErrorReply, frameworkErrorReply, registerErrorHandler } from './error-handler.ts';
import { registerHealthRoute } from './health-route.ts';
import { trackMethodsForNotAllowed } from './method-not-allowed.ts';
import { registerBoundedJsonParser } from './bounded-json.ts';
import { boundPublicRoutes } from './public-route-bounds.ts';
import { rejectUnusableInput } from './reject-nul-bytes.ts';
import type { ContextResolver, RequestContext } from './request-context.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { tooManyRequests } from './too-many-requests.ts';
import { registerConsole } from './serve-console.ts';
import { serverFeatures, type EntityGraphql } from './server-features.ts';
import { instrumentDatabase } from '../observability/instrument-database.ts';
import { watchJobs, watchPool } from '../observability/metrics.ts';
import { loadMetricsConfig } from '../observability/metrics-config.ts';
import { registerMetricsRoute } from '../observability/metrics-route.ts';
import { registerReadinessRoute } from '../observability/readiness-route.ts';
import { registerRequestIds, requestIdOf } from '../observability/request-id.ts';
import { RequestLogController } from '../observability/request-log-controller.ts';

export interface CreateServerOptions {
  config: ServerConfig;
  /** Entity models; default: the generated ones (tests pass modified copies). */
  entities?: EntityModelMap;
  schemas?: Record<string, EntitySchemas>;
  /** The generic entities' GraphQL schema; default: the generated one (a live apply passes the new model's, server/studio/live-model.ts). */
  graphql?: EntityGraphql;
  /** Permission check of every route; default: the caller's role must hold the route's permission. */
  authorizer?: Authorizer;
  /** Who is calling; default: from the bearer token or API key (server/identity). */
  resolveContext?: ContextResolver;
  /** Identity settings over the environment's (tests: admin password, secrets, rate limits). */
  identity?: Partial<IdentityConfig>;
  /** false silences logs (tests); default: pino at config.logLevel. */
  logger?: boolean;
  /** Where the log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /**
   * The environment variables, read once here at start (server/config.ts parses them); default:
   * process.env. Tests pass their variables here instead of changing process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** LLM, embedding, RAG and GraphQL defaults already parsed; default: parsed from `env`. */
  environment?: EnvironmentDefaults;
}

export interface ForjaServer {
  app: FastifyInstance;
  database: Database;
  service: EntityService;
  identity: Identity;
  /** Every route and how it is protected (public, authenticated or its permission). */
  routes: RouteAccess[];
  /** What the last close had to cut (requests still running after SHUTDOWN_GRACE_MS). */
  shutdown: GracefulClose;
}

/** Builds the API (and console) server: database ready and migrated before it returns. */
export async function createServer(options: CreateServerOptions): Promise<FastifyInstance> {
  return (await createForjaServer(options)).app;
}

export async function createForjaServer(options: CreateServerOptions): Promise<ForjaServer> {
  const { config } = options;
  const entities = options.entities ?? generatedEntities;
  const schemas = options.schemas ?? generatedSchemas;
  const metricsConfig = loadMetricsConfig(options.env ?? process.env);
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    // One log line per request, and request ids unique across instances (server/observability).
    logController: new RequestLogController(metricsConfig.enabled),
    genReqId: requestIdOf,
    requestIdHeader: false,
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler: clientErrorReply,
    // JSON bodies of entities are small; files go through multipart with their own limit.
    bodyLimit: 5 * 1024 * 1024,
    // GET <base>/ids/:ids carries a comma-separated list of ids (runtime/transport/rest-transport.ts);
    // Fastify's default (100 characters) turned more than two UUIDs into a 404. The URL itself is
    // bounded by Node's 16 KB header limit.
    routerOptions: { maxParamLength: 16 * 1024 },
    // Behind a reverse proxy (README.md "Scaling out") the client address comes from X-Forwarded-For,
    // believed only from the proxies TRUST_PROXY names (never `true`: server/config.ts).
    trustProxy: typeof config.trustProxy === 'number' ? hopsTrusted(config.trustProxy) : config.trustProxy,
  });
  // First: its preClose hook must run before the others (the job queue's waits for its jobs).
  const shutdown = registerGracefulClose(app, { graceMs: config.shutdownGraceMs });
  // Bodies are JSON (or multipart for files); plain text would only reach handlers to fail there,
  // so without its parser Fastify answers 415 itself.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);
  registerRequestIds(app);
  // PostgreSQL cannot store U+0000 nor a lone surrogate: every body, query and path parameter
  // holding one is a 400, as is a repeated query parameter.
  rejectUnusableInput(app);
  drainUnreadBodies(app);

  // The environment, read once here (server/config.ts): a bad variable stops the start.
  const featureConfig = loadFeatureConfig(options.env);
  const identityConfig: IdentityConfig = { ...featureConfig.identity, ...options.identity };
  checkScaleOutSecrets(config, identityConfig);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const opened = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.pgPoolSize, log: app.log });
  const database = metricsConfig.enabled ? instrumentDatabase(opened) : opened;
  app.addHook('onClose', async () => database.close());
  const models = Object.values(entities);
  const definitions = defineEntities(entities, schemas, createEntityAjv());
  const service = new EntityService(database, definitions);
  // Instances starting together on one PostgreSQL database migrate and seed one at a time.
  try {
    await database.exclusive('forja:startup', async () => {
      // Forja's own tables (jobs, codes, RAG index, coordination), then the manifests' entities.
      await createOwnedTables(database);
      await migrateEntities(database, models, app.log);
      await seedDatabase({ database, service, entities, identity: identityConfig, dataDir: config.dataDir, port: config.port });
    });
  } catch (error) {
    // A refused migration (or any failed start) must not leave the database's connections open.
    await database.close();
    throw error;
  }
  const identity = createIdentity({ dataDir: config.dataDir, database, config: identityConfig });
  const settings = settingsStoreFor(database).writeThrough(service);
  // The Settings rows win over these defaults on every read (resolve-effective-config.ts). GOOGLE_CLIENT_ID
  // and PUBLIC_URL as the identity configuration has them (the `identity` option wins).
  const identityDefaults = { googleClientId: identityConfig.googleClientId ?? null, publicUrl: identityConfig.publicUrl ?? null };
  const effectiveConfig = createEffectiveConfigReader(database, options.environment ?? { ...loadEnvironmentDefaults(options.env), ...identityDefaults });

  const resolveContext = options.resolveContext ?? identity.resolveContext;
  app.decorateRequest('context', null as unknown as RequestContext);
  app.addHook('onRequest', async (request) => {
    const context = await resolveContext(request);
    // Identity's resolver builds each context with the request's id already (no copy per request).
    request.context = context.requestId === request.id ? context : { ...context, requestId: request.id };
  });
  const authorizer = options.authorizer ?? permissionAuthorizer;
  // Every operation checks its own caller through this authorizer (server/operations).
  const defineOperation = operationDefiner(authorizer);
  const { routes } = registerRouteAuthorization(app);
  const addMethodNotAllowed = trackMethodsForNotAllowed(app);
  // Before any body is read: bounded JSON, small public bodies, anonymous rate limits (issue 31 item 3).
  registerBoundedJsonParser(app);
  boundPublicRoutes(app, { anonymousPerMinute: identityConfig.rateLimits.anonymous ?? DEFAULT_ANONYMOUS_PER_MINUTE });

  registerSecurityHeaders(app);
  // Closed unless CORS_ORIGINS names the origins (or '*') allowed to call the API from a browser.
  const origins = identityConfig.corsOrigins;
  await app.register(fastifyCors, { origin: origins.includes('*') ? true : origins.length > 0 ? origins : false });
  // Locks, counters, slots and the upload ledger other instances must agree on (server/db/coordination).
  const coordination = createCoordination({ database, redisUrl: config.redisUrl, log: app.log });
  app.addHook('onClose', async () => coordination.close());
  // Limits are declared per route (config.rateLimit) on the public and credential endpoints only,
  // counted where the coordination says (Redis, PostgreSQL, or this process on SQLite).
  await app.register(fastifyRateLimit, {
    global: false,
    ...coordination.rateLimitStore,
    errorResponseBuilder: (_request, context) => tooManyRequests(context.after),
  });
  // Sign-in, Google sign-in and own password change: one set of counters for REST and GraphQL.
  const credentialLimits = createCredentialLimits(app, identityConfig.rateLimits.login);
  await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20 } });
  // Only for reply.sendFile of /files/*; the routes themselves decide what may be served.
  await app.register(fastifyStatic, { root: config.dataDir, serve: false });

  registerHealthRoute(app);
  // Export download links are signed with a key derived from the token secret (the same value identity uses).
  // Long work (training, imports, exports, parsing) runs as durable jobs, the same on every instance.
  const jobs = await createJobQueue(app, database, featureConfig.jobs, defineOperation);
  registerReadinessRoute(app, { database, probes: coordination.probes, dataDir: config.dataDir, jobs });
  registerMetricsRoute(app, metricsConfig);
  if (metricsConfig.enabled) {
    const unwatch = [watchJobs({ running: () => jobs.runningCount, depth: () => jobs.store.depth() })];
    const pool = database.poolCounts();
    if (pool) unwatch.push(watchPool(pool));
    app.addHook('onClose', async () => unwatch.forEach((stop) => stop()));
  }
  const files = createFileServices({ app, config, database, coordination, service, jobs, signingSecret: readOrCreateSecret(config.dataDir, 'jwt-secret', identityConfig.jwtSecret).value, limits: featureConfig.files });
  // Every entity's operations (access, input hygiene, list defaults), for REST and GraphQL alike.
  const operations = createEntityOperations(models, { service, exporter: files.exporter, importer: files.importer, authorizer });
  registerEntityRoutes(app, models, operations);
  const uploadFile = createFileUploader(defineOperation, config.dataDir, files.uploads);
  registerFileRoutes(app, config.dataDir, uploadFile);
  for (const feature of Object.values(serverFeatures)) await feature(app, { config, featureConfig, database, service, entities, schemas, graphql: options.graphql ?? { typeDefs: entityTypeDefs, operationNames: entityOperationNames }, identity, settings, effectiveConfig, routes, defineOperation, exporter: files.exporter, jobs, credentialLimits, uploadFile, coordination, operations });
  await registerConsole(app, config.distDir);
  addMethodNotAllowed();
  return { app, database, service, identity, routes, shutdown };
}

/**
 * Several instances must sign and check the same tokens and API-key hashes: secrets generated
 * into each instance's DATA_DIR would differ, so with INSTANCE_MODE=multi or REDIS_URL the start
 * is refused unless JWT_SECRET and API_KEY_SECRET come from the configuration.
 */
function checkScaleOutSecrets(config: ServerConfig, identity: IdentityConfig): void {
  if (config.instanceMode !== 'multi' && !config.redisUrl) return;
  const missing = [!identity.jwtSecret && 'JWT_SECRET', !identity.apiKeySecret && 'API_KEY_SECRET'].filter(Boolean);
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(' and ')} must be set when INSTANCE_MODE=multi or REDIS_URL is set: every instance needs the same ` +
        'secrets (see README.md "Scaling out")',
    );
  }
}

/** TRUST_PROXY=<n>: the n nearest hops are proxies (proxy-addr's hop count, as a function for the types). */
function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
