import type { FastifyRequest } from 'fastify';
import { ANONYMOUS_CONTEXT, type AuthFailure, type ContextResolver, type RequestContext } from '../http/request-context.ts';
import { hashApiKeySecret, looksLikeApiKey } from './api-key-secret.ts';
import { isAddressAllowed } from './ip-allow-list.ts';
import type { Principal, PrincipalDirectory } from './principal-directory.ts';
import { TokenError, type TokenService } from './token-service.ts';
import { tokenHash } from './token-versions.ts';

export interface IdentityResolverDeps {
  tokens: TokenService;
  principals: PrincipalDirectory;
  apiKeyPepper: string;
}

/**
 * Who is calling: `Authorization: Bearer <jwt>`, `Authorization: ApiKey <secret>` or
 * `x-api-key: <secret>`. Rejected credentials leave the caller anonymous with the reason in
 * `authFailure`, so public routes still work with a stale token and protected ones answer 401
 * saying why. The user and role are read from the database (cached), not from the token claims,
 * so a deactivated user or a changed role takes effect at once.
 */
export function createIdentityResolver({ tokens, principals, apiKeyPepper }: IdentityResolverDeps): ContextResolver {
  // Tokens already verified, by their exact text, until their exp: the HMAC check through
  // WebCrypto is the largest per-request cost of authentication (~70 us under load), and a
  // console sends the same token thousands of times. The signing key never changes at runtime.
  const verified = new Map<string, { sub: string; exp: number; ver: number }>();
  const verify = async (token: string) => {
    const known = verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    const claims = await tokens.verify(token);
    if (verified.size >= 10_000) verified.clear();
    const entry = { sub: claims.sub, exp: claims.exp, ver: claims.ver };
    verified.set(token, entry);
    return entry;
  };
  return async (request) => {
    const { scheme, credential } = readCredential(request);
    if (scheme === null) return anonymous(request.id);
    if (scheme === 'bearer') {
      let claims: { sub: string; ver: number };
      try {
        claims = await verify(credential);
      } catch (error) {
        return anonymous(request.id, error instanceof TokenError && error.problem === 'expired' ? 'expired' : 'invalid');
      }
      const principal = await principals.byUserId(claims.sub);
      // Issued before the user's last password change (and not the session that made it): revoked.
      if (principal && claims.ver !== principal.tokenVersion && principal.keepTokenHash !== tokenHash(credential)) return anonymous(request.id, 'invalid');
      return signedIn(principal, request.id);
    }
    if (scheme === 'apikey') {
      if (!looksLikeApiKey(credential)) return anonymous(request.id, 'invalid');
      const owner = await principals.byApiKeyHash(hashApiKeySecret(credential, apiKeyPepper));
      if (!owner) return anonymous(request.id, 'invalid');
      if (!isAddressAllowed(request.ip, owner.ipv4, owner.ipv6)) return anonymous(request.id, 'ipNotAllowed');
      return signedIn(owner.principal, request.id);
    }
    return anonymous(request.id, 'invalid');
  };
}

function readCredential(request: FastifyRequest): { scheme: 'bearer' | 'apikey' | 'unknown' | null; credential: string } {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && authorization.trim() !== '') {
    const trimmed = authorization.trim();
    const space = trimmed.indexOf(' ');
    const scheme = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase();
    const credential = space < 0 ? '' : trimmed.slice(space + 1).trim();
    if (scheme === 'bearer') return { scheme: 'bearer', credential };
    if (scheme === 'apikey') return { scheme: 'apikey', credential };
    return { scheme: 'unknown', credential };
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim() !== '') return { scheme: 'apikey', credential: apiKey.trim() };
  return { scheme: null, credential: '' };
}

/**
 * Contexts carry the request's id (create-server.ts keeps them as they are). Every context of a
 * request is built by these two with the same properties in the same order, so the code reading
 * them (each operation's access check) sees one object shape, not four.
 */
function signedIn(principal: Principal | null, requestId: string): RequestContext {
  // A user who is gone or deactivated: the credential no longer holds.
  if (!principal || !principal.active) return anonymous(requestId, 'invalid');
  return { userId: principal.userId, tenantId: principal.tenantId, permissions: principal.permissions, roleId: principal.roleId, authFailure: undefined, requestId };
}

function anonymous(requestId: string, authFailure?: AuthFailure): RequestContext {
  return { userId: null, tenantId: null, permissions: ANONYMOUS_CONTEXT.permissions, roleId: undefined, authFailure, requestId };
}
