import type { FeatureDependencies } from '../http/server-features.ts';
import { AccessRules } from './access-rules.ts';
import { createSignIn, type SignIn } from './auth-routes.ts';
import { createAvatarSetter, type AvatarSetter } from './avatar-route.ts';
import { createGoogleSignIn, type GoogleSignIn } from './google-routes.ts';
import { createPasswordChanges, type PasswordChanges } from './password-routes.ts';
import { PermissionCoverage } from './permission-coverage.ts';
import { UserAccounts } from './user-accounts.ts';

/**
 * The identity operations both transports run: REST routes (identity-feature.ts) and GraphQL
 * mutations (server/graphql/identity-resolvers.ts) call these same functions, so they share the
 * caller checks, validation, error codes and the attempt counters (deps.credentialLimits, one set
 * per server). Each operation checks its own caller and counts its own attempts, so a transport
 * cannot forget either.
 */
export interface IdentityOperations {
  signIn: SignIn;
  googleSignIn: GoogleSignIn;
  passwords: PasswordChanges;
  setAvatar: AvatarSetter;
}

/**
 * Holds no state a second copy could split: accounts and the access rules read the database
 * (the rules registered as entity hooks are identity-feature.ts's; these only answer
 * requireMayActOn), and the limits are the server's. Google's verifier is cached per copy.
 */
export function createIdentityOperations(deps: FeatureDependencies): IdentityOperations {
  const { identity, service, database, settings } = deps;
  const accounts = new UserAccounts(database, service);
  const rules = new AccessRules({ database, service, coverage: new PermissionCoverage(deps.entities), tokenVersions: identity.tokenVersions });
  const limits = deps.credentialLimits;
  return {
    signIn: createSignIn({ identity, accounts, limits }),
    googleSignIn: createGoogleSignIn({ identity, accounts, service, settings, readConfig: deps.runtimeConfig, limits }),
    passwords: createPasswordChanges({ accounts, service, rules, tokenVersions: identity.tokenVersions, limits, enforce: deps.enforce }),
    setAvatar: createAvatarSetter({ dataDir: deps.config.dataDir, accounts }),
  };
}
