import type { ServerFeature } from '../http/server-features.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { UserAccounts } from './user-accounts.ts';

/** Identity's routes: sign-in, current user, passwords, registration, API keys, users/roles/tenants extras. */
export const identityFeature: ServerFeature = (app, deps) => {
  const accounts = new UserAccounts(deps.database);
  registerAuthRoutes(app, { identity: deps.identity, accounts, service: deps.service });
};
