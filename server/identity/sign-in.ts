import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityService } from '../entities/entity-service.ts';
import { HttpError, validationError, type InputError } from '../http/http-error.ts';
import { system } from '../entities/system-context.ts';
import type { Identity } from './create-identity.ts';
import type { CredentialLimits } from './credential-limits.ts';
import { burnPasswordCheck, verifyPassword } from './password-hasher.ts';
import type { UserAccounts, UserAccount } from './user-accounts.ts';

export const invalidCredentials = () => new HttpError(401, 'Invalid credentials', { i18nMessage: 'error.invalidCredentials' });

/** The access token of a user (claims per spec: sub, role, tenant, exp; plus ver, the user's token version). */
export async function issueToken(identity: Identity, account: UserAccount): Promise<string> {
  const ver = await identity.tokenVersions.current(account.id);
  return identity.tokens.sign({ sub: account.id, role: account.roleId, tenant: account.tenantId, ver });
}

/** Sign-in with username and password: `{ accessToken }`, or the 401 every failure shares. */
export type SignIn = (request: FastifyRequest, reply: FastifyReply | undefined, input: Record<string, unknown>) => Promise<{ accessToken: string }>;

/**
 * The work of sign-in (the public operation of identity-operations.ts, POST /api/auth/login and
 * GraphQL `login`). Every attempt counts against the
 * caller's login limit first (credential-limits.ts, shared by both transports). A wrong password,
 * an unknown username and an inactive user get the same 401 after the same amount of hashing
 * work, so neither the answer nor its timing tells which usernames exist.
 */
export function createSignIn(deps: { identity: Identity; accounts: UserAccounts; limits: CredentialLimits }): SignIn {
  const { identity, accounts, limits } = deps;
  return async (request, reply, input) => {
    await limits.login(request, reply);
    const errors: InputError[] = [];
    for (const field of ['username', 'password']) {
      if (typeof input[field] !== 'string' || (input[field] as string).trim() === '') errors.push({ field, reason: 'validation.required' });
    }
    if (errors.length > 0) throw validationError(errors);
    const username = (input.username as string).trim();
    const password = input.password as string;
    const account = await accounts.byUsername(username);
    if (!account) {
      await burnPasswordCheck(password);
      throw invalidCredentials();
    }
    const valid = await verifyPassword(account.passwordHash, password);
    if (!valid || !account.active) throw invalidCredentials();
    return { accessToken: await issueToken(identity, account) };
  };
}

/**
 * docs/product-rules.md#entities current-user lookup (REST GET /api/auth/me and GraphQL `me`): read with system(), as
 * the caller may lack user:view for their own record.
 */
export async function currentUserOf(service: EntityService, userId: string) {
  return currentUser(await service.findById('user', system(), userId));
}

/** id, username, email, phone, role (id, name, permissions), avatar. */
export type CurrentUser = ReturnType<typeof currentUser>;

function currentUser(user: Record<string, unknown>) {
  const role = user.role as { _id: string; name?: string; permissions?: string[] } | null;
  const tenant = user.tenant as { _id: string; name?: string } | null;
  return {
    id: user._id,
    _id: user._id,
    username: user.username,
    name: user.name ?? null,
    email: user.email ?? null,
    phone: user.phone ?? null,
    role: role ? { id: role._id, _id: role._id, name: role.name ?? null, permissions: role.permissions ?? [] } : null,
    tenant: tenant ? { id: tenant._id, _id: tenant._id, name: tenant.name ?? null } : null,
    avatar: user.avatar ?? null,
  };
}
