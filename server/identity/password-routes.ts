import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../entities/entity-service.ts';
import { validationError, type InputError } from '../http/http-error.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import { verifyPassword } from './password-hasher.ts';
import { checkPasswordLength } from './password-policy.ts';
import type { UserAccounts } from './user-accounts.ts';
import type { AccessRules } from './access-rules.ts';
import type { TokenVersions } from './token-versions.ts';

const USER_UPDATE: RoutePermission = { entity: 'user', action: 'update', permission: 'user:update', alternatives: ['user:manage'] };

/**
 * Own password change (current password required) and the administrator's reset of another
 * user's. Either ends the user's other sessions: tokens issued before stop working
 * (token-versions.ts); the session that changed its own password stays signed in.
 */
export function registerPasswordRoutes(
  app: FastifyInstance,
  deps: { accounts: UserAccounts; service: EntityService; rules: AccessRules; tokenVersions: TokenVersions; loginLimit: number },
): void {
  const { accounts, service, rules, tokenVersions } = deps;

  app.post(
    '/api/users/password/change',
    { config: { authenticated: true, rateLimit: { max: deps.loginLimit, timeWindow: '1 minute' } } },
    async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const errors: InputError[] = [];
      if (typeof body.currentPassword !== 'string' || body.currentPassword === '') errors.push({ field: 'currentPassword', reason: 'validation.required' });
      const lengthProblem = checkPasswordLength(body.newPassword, 'newPassword');
      if (lengthProblem) errors.push(lengthProblem);
      if (errors.length > 0) throw validationError(errors);
      const account = await accounts.byId(request.context.userId!);
      if (!account || !(await verifyPassword(account.passwordHash, body.currentPassword as string))) {
        throw validationError([{ field: 'currentPassword', reason: 'validation.password.current' }]);
      }
      if (body.newPassword === body.currentPassword) {
        throw validationError([{ field: 'newPassword', reason: 'validation.password.different' }]);
      }
      const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      await tokenVersions.revoke(account.id, bearer ? bearer[1] : null);
      await accounts.setPassword(account.id, body.newPassword as string);
      return true;
    },
  );

  app.post<{ Params: { userId: string } }>('/api/users/password/change/:userId', { config: { permission: USER_UPDATE } }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const problem = checkPasswordLength(body.newPassword, 'newPassword');
    if (problem) throw validationError([problem]);
    // Through the entity service so a tenant administrator reaches only their tenant's users (404 otherwise).
    const user = await service.findById('user', request.context, request.params.userId);
    // Never the password of an account holding permissions the caller does not (e.g. the Admin).
    await rules.requireMayActOn(request.context, user);
    await tokenVersions.revoke(String(user._id));
    await accounts.setPassword(String(user._id), body.newPassword as string);
    return true;
  });
}
