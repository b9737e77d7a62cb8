import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EntityService } from '../entities/entity-service.ts';
import type { Enforce } from '../http/authorize-route.ts';
import { authenticationError } from '../http/authentication-error.ts';
import { validationError, type InputError } from '../http/http-error.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import type { CredentialLimits } from './credential-limits.ts';
import { verifyPassword } from './password-hasher.ts';
import { checkPasswordLength } from './password-policy.ts';
import type { UserAccounts } from './user-accounts.ts';
import type { AccessRules } from './access-rules.ts';
import type { TokenVersions } from './token-versions.ts';

export const USER_UPDATE: RoutePermission = { entity: 'user', action: 'update', permission: 'user:update', alternatives: ['user:manage'] };

export interface PasswordChanges {
  /** The caller's own password (current password required); `{ currentPassword, newPassword }`. */
  changeOwn(request: FastifyRequest, reply: FastifyReply | undefined, input: Record<string, unknown>): Promise<true>;
  /** An administrator's reset of another user's password; `{ newPassword }`. */
  reset(request: FastifyRequest, userId: string, input: Record<string, unknown>): Promise<true>;
}

/**
 * Own password change and the administrator's reset, for REST (below) and GraphQL alike: each
 * checks its caller itself (signed in; USER_UPDATE), and the own change counts against the
 * caller's password-change limit (credential-limits.ts, shared by both transports). Either ends
 * the user's other sessions: tokens issued before stop working (token-versions.ts); the session
 * that changed its own password stays signed in.
 */
export function createPasswordChanges(deps: {
  accounts: UserAccounts;
  service: EntityService;
  rules: AccessRules;
  tokenVersions: TokenVersions;
  limits: CredentialLimits;
  enforce: Enforce;
}): PasswordChanges {
  const { accounts, service, rules, tokenVersions, limits, enforce } = deps;
  return {
    async changeOwn(request, reply, input) {
      if (request.context.userId === null) throw authenticationError(request.context);
      await limits.passwordChange(request, reply);
      const errors: InputError[] = [];
      if (typeof input.currentPassword !== 'string' || input.currentPassword === '') errors.push({ field: 'currentPassword', reason: 'validation.required' });
      const lengthProblem = checkPasswordLength(input.newPassword, 'newPassword');
      if (lengthProblem) errors.push(lengthProblem);
      if (errors.length > 0) throw validationError(errors);
      const account = await accounts.byId(request.context.userId);
      if (!account || !(await verifyPassword(account.passwordHash, input.currentPassword as string))) {
        throw validationError([{ field: 'currentPassword', reason: 'validation.password.current' }]);
      }
      if (input.newPassword === input.currentPassword) {
        throw validationError([{ field: 'newPassword', reason: 'validation.password.different' }]);
      }
      const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      await tokenVersions.revoke(account.id, bearer ? bearer[1] : null);
      await accounts.setPassword(account.id, input.newPassword as string);
      return true;
    },
    async reset(request, userId, input) {
      await enforce(request, USER_UPDATE);
      const problem = checkPasswordLength(input.newPassword, 'newPassword');
      if (problem) throw validationError([problem]);
      // Through the entity service so a tenant administrator reaches only their tenant's users (404 otherwise).
      const user = await service.findById('user', request.context, userId);
      // Never the password of an account holding permissions the caller does not (e.g. the Admin).
      await rules.requireMayActOn(request.context, user);
      await tokenVersions.revoke(String(user._id));
      await accounts.setPassword(String(user._id), input.newPassword as string);
      return true;
    },
  };
}

/** POST /api/users/password/change and /api/users/password/change/:userId. */
export function registerPasswordRoutes(app: FastifyInstance, passwords: PasswordChanges): void {
  const body = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;
  app.post('/api/users/password/change', { config: { authenticated: true } }, async (request, reply) => passwords.changeOwn(request, reply, body(request)));
  app.post<{ Params: { userId: string } }>('/api/users/password/change/:userId', { config: { permission: USER_UPDATE } }, async (request) =>
    passwords.reset(request, request.params.userId, body(request)),
  );
}
