import type { ServerFeature } from '../http/server-features.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerApiKeySecrets } from './api-key-routes.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { registerAvatarRoute } from './avatar-route.ts';
import { registerDirectoryRoutes } from './directory-routes.ts';
import { registerGoogleRoutes } from './google-routes.ts';
import { createIdentityOperations } from './identity-operations.ts';
import { registerPasswordRoutes } from './password-routes.ts';
import { registerNoStore } from '../http/no-store.ts';
import { AccessRules } from './access-rules.ts';
import { PermissionCoverage } from './permission-coverage.ts';
import { bindSensitiveSettings } from './sensitive-settings.ts';
import { ensureUniqueUsernames } from './unique-usernames.ts';
import { registerUsersExportFilters } from './users-export-filters.ts';

/**
 * Identity's hand-written API on top of the generic user/role/tenant/userApiKey routes:
 * sign-in, current user, passwords, registration and recovery, avatar, Google, lookups, API-key
 * secrets and the role rules (server/identity/README.md).
 */
export const identityFeature: ServerFeature = async (app, deps) => {
  const { identity, service, settings, database } = deps;
  // API answers carry personal data and tokens: never cached (registered here, with identity,
  // until create-server, being edited concurrently, can take it).
  registerNoStore(app);
  await ensureUniqueUsernames(database, app.log);
  // Privilege boundaries, global records, last administrator, records in use: entity-service
  // hooks, so every write path (REST, GraphQL, import) runs them.
  const coverage = new PermissionCoverage(deps.entities);
  const rules = new AccessRules({ database, service, coverage, tokenVersions: identity.tokenVersions });
  // Security-relevant settings need a full administrator; the default role must be harmless.
  bindSensitiveSettings(settings, { coverage, service });
  rules.register();
  // The same operations GraphQL runs (identity-operations.ts): one set of access checks and attempt counters.
  const operations = createIdentityOperations(deps, app.log);
  registerAuthRoutes(app, operations);
  registerPasswordRoutes(app, operations);
  registerAccountRoutes(app, operations, identity.config);
  registerAvatarRoute(app, operations);
  registerGoogleRoutes(app, operations);
  registerDirectoryRoutes(app, operations);
  registerApiKeySecrets({ service, pepper: identity.apiKeyPepper });
  registerUsersExportFilters(service);
};
