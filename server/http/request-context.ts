import type { FastifyRequest } from 'fastify';

/**
 * Who is calling, as far as data scoping is concerned. The identity issue fills it from the
 * token; until then every request is a platform administrator (no tenant, every permission).
 */
export interface RequestContext {
  userId: string | null;
  /** null: platform administrator, sees every tenant. */
  tenantId: string | null;
  /** Permission strings of the caller's role; '*' grants all of them. */
  permissions: readonly string[];
}

export const ALL_PERMISSIONS = '*';

export const PLATFORM_ADMIN_CONTEXT: RequestContext = Object.freeze({
  userId: null,
  tenantId: null,
  permissions: Object.freeze([ALL_PERMISSIONS]),
});

/** Builds the context of one request (from its token, later). */
export type ContextResolver = (request: FastifyRequest) => RequestContext | Promise<RequestContext>;

export const platformAdminResolver: ContextResolver = () => PLATFORM_ADMIN_CONTEXT;

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
