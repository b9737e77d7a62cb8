import type { Database } from '../db/database.ts';
import type { ContextResolver } from '../http/request-context.ts';
import type { IdentityConfig } from './identity-config.ts';
import { createIdentityResolver } from './resolve-identity-context.ts';
import { PrincipalDirectory } from './principal-directory.ts';
import { readOrCreateSecret } from './secret-store.ts';
import { createTokenService, type TokenService } from './token-service.ts';
import { TokenVersions } from './token-versions.ts';

/** The identity pieces shared by the request hook (who is calling) and the identity routes. */
export interface Identity {
  config: IdentityConfig;
  tokens: TokenService;
  /** Pepper of the API-key keyed hashes. */
  apiKeyPepper: string;
  principals: PrincipalDirectory;
  /** Per-user token versions: a password change revokes the tokens issued before it. */
  tokenVersions: TokenVersions;
  resolveContext: ContextResolver;
}

export function createIdentity(options: { dataDir: string; database: Database; config: IdentityConfig }): Identity {
  const { dataDir, database, config } = options;
  const tokens = createTokenService(readOrCreateSecret(dataDir, 'jwt-secret', config.jwtSecret).value, config.tokenLifetimeSeconds);
  const apiKeyPepper = readOrCreateSecret(dataDir, 'api-key-secret', config.apiKeySecret).value;
  const principals = new PrincipalDirectory(database);
  return { config, tokens, apiKeyPepper, principals, tokenVersions: new TokenVersions(database), resolveContext: createIdentityResolver({ tokens, principals, apiKeyPepper }) };
}
