import type { FastifyInstance } from 'fastify';
import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import type { EntitySchemas } from '../generated/schemas.ts';
import type { FeatureConfig, ServerConfig } from '../config.ts';
import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import type { Database } from '../db/database.ts';
import type { EntityExporter } from '../entities/entity-exporter.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { Identity } from '../identity/create-identity.ts';
import type { CredentialLimits } from '../identity/credential-limits.ts';
import type { FileUploader } from '../files/file-routes.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { identityFeature } from '../identity/identity-feature.ts';
import { NO_LIVE_CHANGES, registerLiveModelRoute } from '../studio/live-model-route.ts';
import { settingsFeature } from '../settings/settings-feature.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import { registerRagFeature } from '../rag/rag-routes.ts';
import { registerChatFeature } from '../chat/register-chat-feature.ts';
import { graphqlFeature } from '../graphql/graphql-feature.ts';
import { openapiFeature } from '../openapi/openapi-feature.ts';
import type { Coordination } from '../db/coordination/coordination.ts';
import type { EntityOperations } from '../entities/operations/entity-operations.ts';
import type { RouteAccess } from './authorize-route.ts';
import type { DefineOperation } from '../operations/define-operation.ts';

/** What a feature module gets to register its routes with. */
export interface EntityGraphql {
  typeDefs: string;
  operationNames: Record<string, Record<string, string>>;
}

export interface FeatureDependencies {
  config: ServerConfig;
  /** Identity, file and chat limits from the environment, read once at start (server/config.ts). */
  featureConfig: FeatureConfig;
  database: Database;
  service: EntityService;
  entities: EntityModelMap;
  /** Each entity's request and response schemas (the generated ones, or a live apply's). */
  schemas: Record<string, EntitySchemas>;
  /** The generic entities' GraphQL schema and operation names (the generated ones, or a live apply's). */
  graphql: EntityGraphql;
  /** Token service, API-key pepper, caller lookup (server/identity). */
  identity: Identity;
  /** Server-side Settings reader, e.g. settings.get('llm.model') (server/settings/README.md). */
  settings: SettingsStore;
  /** LLM, embedding, RAG and GraphQL configuration: Settings over the environment, read per call (server/config). */
  effectiveConfig: EffectiveConfigReader;
  /** Every route registered, with how it is protected (complete once the server is ready). */
  routes: RouteAccess[];
  /** Defines a feature's operation: its access (checked by the operation itself) and its work (server/operations). */
  defineOperation: DefineOperation;
  /** The one exporter (its files, quota and signed download links are shared by REST and GraphQL). */
  exporter: EntityExporter;
  /** The durable job queue for long work (server/jobs): features register their job kinds on it. */
  jobs: JobQueue;
  /** The sign-in and password-change attempt counters, one set per server for every transport. */
  credentialLimits: CredentialLimits;
  /** The upload of POST /api/file (its per-user limits included), for GraphQL's uploadFile. */
  uploadFile: FileUploader;
  /** Locks and counters shared with other instances (server/db/coordination). */
  coordination: Coordination;
  /** Every generic entity's operations, by entity name: what a transport calls (server/entities/operations). */
  operations: Readonly<Record<string, EntityOperations>>;
}

/** A hand-written part of the API (identity, settings, RAG, chat): registers its routes and hooks. */
export type ServerFeature = (app: FastifyInstance, deps: FeatureDependencies) => Promise<void> | void;

/**
 * Every hand-written feature, by name, registered after the generic entity routes. An explicit
 * object literal: adding a feature is one line here, and the order below is the order they run.
 */
export const serverFeatures: Record<string, ServerFeature> = {
  identity: identityFeature,
  settings: settingsFeature,
  rag: registerRagFeature,
  chat: registerChatFeature,
  graphql: graphqlFeature,
  // The studio runs the generator: loaded only when it is on, so a server without it never loads generator/.
  studio: async (app, deps) => {
    // Without it nothing is applied live: the console's question (GET /api/live-model) has one answer.
    if (!deps.featureConfig.studio.enabled) return registerLiveModelRoute(app, deps.defineOperation('signedIn', async () => NO_LIVE_CHANGES));
    const { studioFeature } = await import('../studio/studio-feature.ts');
    await studioFeature(app, deps);
  },
  openapi: openapiFeature,
};
