import type { FastifyRequest } from 'fastify';
import type { RequestContext } from './request-context.ts';

/** A permission an operation needs (server/operations/define-operation.ts), with what also grants it. */
export interface RoutePermission {
  /** Entity name, for messages and for authorizers that reason per entity. */
  entity: string;
  action: 'view' | 'create' | 'update' | 'delete';
  /** The permission the model names for this action (e.g. bot:view). */
  permission: string;
  /**
   * Permissions that also grant it: the entity's :manage, and its "own" variant
   * (userApiKey:myView) which then limits the caller to their own records.
   */
  alternatives: string[];
}

export type AuthorizationResult = 'allow' | 'deny' | 'unauthenticated';

/** Decides whether a caller may run an operation (server/identity/permission-authorizer.ts is the server's). */
export type Authorizer = (input: {
  /** The HTTP request the operation serves, when there is one (a job or a script has none). */
  request?: FastifyRequest;
  context: RequestContext;
  required: RoutePermission;
}) => AuthorizationResult | Promise<AuthorizationResult>;

/** Lets every request through: only for tests of the generic layer (the server default checks permissions). */
export const allowAllAuthorizer: Authorizer = () => 'allow';
