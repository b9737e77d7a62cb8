import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityService } from '../entities/entity-service.ts';
import { validationError, type InputError } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { CredentialLimits } from './credential-limits.ts';
import { verifyPassword } from './password-hasher.ts';
import { checkPasswordLength } from './password-policy.ts';
import type { UserAccounts } from './user-accounts.ts';
import type { AccessRules } from './access-rules.ts';
import type { TokenVersions } from './token-versions.ts';

export interface PasswordChanges {
  /** The signed-in caller's own password (current password required); `{ currentPassword, newPassword }`. */
  changeOwn(request: FastifyRequest, reply: FastifyReply | undefined, userId: string, input: Record<string, unknown>): Promise<true>;
  /** An administrator's reset of another user's password; `{ newPassword }`. */
  reset(context: RequestContext, userId: string, input: Record<string, unknown>): Promise<true>;
}

/**
 * The work of the own password change and the administrator's reset (identity-operations.ts
 * checks who may run each): the own change counts against the caller's password-change limit
 * (credential-limits.ts, shared by every transport). Either ends the user's other sessions:
 * tokens issued before stop working (token-versions.ts); the session that changed its own
 * password stays signed in.
 */
export function createPasswordChanges(deps: {
  accounts: UserAccounts;
  service: EntityService;
  rules: AccessRules;
  tokenVersions: TokenVersions;
  limits: CredentialLimits;
}): PasswordChanges {
  const { accounts, service, rules, tokenVersions, limits } = deps;
  return {
    async changeOwn(request, reply, userId, input) {
      await limits.passwordChange(request, reply);
      const errors: InputError[] = [];
      if (typeof input.currentPassword !== 'string' || input.currentPassword === '') errors.push({ field: 'currentPassword', reason: 'validation.required' });
      const lengthProblem = checkPasswordLength(input.newPassword, 'newPassword');
      if (lengthProblem) errors.push(lengthProblem);
      if (errors.length > 0) throw validationError(errors);
      const account = await accounts.byId(userId);
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
    async reset(context, userId, input) {
      const problem = checkPasswordLength(input.newPassword, 'newPassword');
      if (problem) throw validationError([problem]);
      // Through the entity service so a tenant administrator reaches only their tenant's users (404 otherwise).
      const user = await service.findById('user', context, userId);
      // Never the password of an account holding permissions the caller does not (e.g. the Admin).
      await rules.requireMayActOn(context, user);
      await tokenVersions.revoke(String(user._id));
      await accounts.setPassword(String(user._id), input.newPassword as string);
      return true;
    },
  };
}
