import type { FastifyRequest } from 'fastify';

/** Why credentials that were presented did not identify anyone (drives the 401 message). */
export type AuthFailure = 'expired' | 'invalid' | 'ipNotAllowed';

/**
 * Who is calling, as far as data scoping is concerned. server/identity fills it from the bearer
 * token or API key (resolve-identity-context.ts); anonymous callers have no user and no
 * permissions, so only public operations (server/operations) run for them.
 */
export interface RequestContext {
  userId: string | null;
  /** null: platform administrator, sees every tenant (or anonymous, when userId is null too). */
  tenantId: string | null;
  /** Permission strings of the caller's role; '*' grants all of them. */
  permissions: readonly string[];
  /** Role id of the signed-in caller. */
  roleId?: string | null;
  /** Set when credentials were sent but rejected; the caller is then anonymous. */
  authFailure?: AuthFailure;
  /** Only on system() (server/entities/system-context.ts): the privileged local API, no access rules. */
  system?: true;
  /**
   * The X-Request-Id of the request this context was read for (create-server.ts): how a job
   * records the request that enqueued it. Carried here rather than in AsyncLocalStorage, whose
   * hooks would make every await of every request slower (transaction-tracker.ts says by how much).
   */
  requestId?: string;
}

export const ALL_PERMISSIONS = '*';

/** Builds the context of one request (from its token, later). */
export type ContextResolver = (request: FastifyRequest) => RequestContext | Promise<RequestContext>;

export const ANONYMOUS_CONTEXT: RequestContext = Object.freeze({
  userId: null,
  tenantId: null,
  permissions: Object.freeze([]),
});

export function hasPermission(context: RequestContext, permission: string | null): boolean {
  if (!permission) return false;
  return context.permissions.includes(ALL_PERMISSIONS) || context.permissions.includes(permission);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the onRequest hook of create-server before any handler runs. */
    context: RequestContext;
  }
}
