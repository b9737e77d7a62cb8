import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { UploadedContent } from '../files/read-uploaded-file.ts';
import type { UploadedFile } from '../files/file-routes.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import type { FeatureDependencies } from '../http/server-features.ts';
import type { Operation } from '../operations/define-operation.ts';
import type { OperationCaller } from '../operations/operation-caller.ts';
import { AccessRules } from './access-rules.ts';
import { createAvatarSetter } from './avatar-setter.ts';
import { createDirectory } from './directory.ts';
import { createGoogleSignIn } from './google-sign-in.ts';
import { createMailSender } from './mail-sender.ts';
import { createPasswordChanges } from './password-changes.ts';
import { PermissionCoverage } from './permission-coverage.ts';
import { RecoveryCodes } from './recovery-codes.ts';
import { createSelfService } from './self-service.ts';
import { createSignIn, currentUserOf, type CurrentUser } from './sign-in.ts';
import { UserAccounts } from './user-accounts.ts';

/** An administrator's reset of another user's password. */
export const USER_UPDATE: RoutePermission = { entity: 'user', action: 'update', permission: 'user:update', alternatives: ['user:manage'] };

type Fields = Record<string, unknown>;
type Records = Record<string, unknown>[];

/**
 * The identity operations every transport runs: REST routes (identity-feature.ts) and GraphQL
 * (server/graphql/identity-resolvers.ts) call these same operations, so they share the access
 * decisions, validation, error codes and the attempt counters (deps.credentialLimits, one set per
 * server). Each declares who may run it and checks it itself; inputs are the bodies as sent.
 */
export interface IdentityOperations {
  /** `{ username, password }` → `{ accessToken }`; counts against the caller address's login limit. */
  signIn: Operation<unknown, { accessToken: string }>;
  /** `{ credential }` (Google's ID token) → `{ accessToken }`. */
  googleSignIn: Operation<unknown, { accessToken: string }>;
  /** Tokens are stateless: signing out is the client dropping its token (a future server session would end here). */
  signOut: Operation<void, { ok: true }>;
  me: Operation<void, CurrentUser>;
  /** `{ currentPassword, newPassword }`: the caller's own. */
  changeOwnPassword: Operation<unknown, true>;
  /** `{ newPassword }` for `userId`: user:update, and never an account holding more than the caller. */
  resetPassword: Operation<{ userId: string; body: unknown }, true>;
  /** The caller's own picture; `read` is called only once the caller is admitted. */
  setAvatar: Operation<{ read: () => Promise<UploadedContent> }, UploadedFile>;
  register: Operation<unknown, Fields>;
  requestRecovery: Operation<unknown, { ok: true }>;
  completeRecovery: Operation<unknown, true>;
  permissions: Operation<void, string[]>;
  rolesAll: Operation<void, Records>;
  rolesAssignable: Operation<void, Records>;
  tenantsAll: Operation<void, Records>;
}

/**
 * Holds no state a second copy could split: accounts and the access rules read the database
 * (the rules registered as entity hooks are identity-feature.ts's; these only answer
 * requireMayActOn), and the limits are the server's. Google's verifier is cached per copy.
 */
export function createIdentityOperations(deps: FeatureDependencies, log: FastifyBaseLogger): IdentityOperations {
  const { identity, service, database, settings, config, defineOperation: define } = deps;
  const accounts = new UserAccounts(database, service);
  const rules = new AccessRules({ database, service, coverage: new PermissionCoverage(deps.entities), tokenVersions: identity.tokenVersions });
  const limits = deps.credentialLimits;
  const signIn = createSignIn({ identity, accounts, limits });
  const googleSignIn = createGoogleSignIn({ identity, accounts, service, settings, readConfig: deps.effectiveConfig, limits });
  const passwords = createPasswordChanges({ accounts, service, rules, tokenVersions: identity.tokenVersions, limits });
  const setAvatar = createAvatarSetter({ dataDir: config.dataDir, accounts });
  const selfService = createSelfService({
    port: config.port, accounts, service, settings, codes: new RecoveryCodes(database), tokenVersions: identity.tokenVersions, log,
    mailer: createMailSender({ readConfig: deps.effectiveConfig, dataDir: config.dataDir, logger: log }), readConfig: deps.effectiveConfig,
  });
  const directory = createDirectory({ service, entities: deps.entities });
  const me = (caller: OperationCaller) => currentUserOf(service, ownUserId(caller));

  return {
    signIn: define<unknown, { accessToken: string }>('public', async (caller, body) => signIn(httpRequestOf(caller, 'Sign-in'), caller.reply, fields(body))),
    googleSignIn: define<unknown, { accessToken: string }>('public', async (caller, body) => googleSignIn(httpRequestOf(caller, 'Google sign-in'), caller.reply, fields(body))),
    signOut: define<void, { ok: true }>('public', async () => ({ ok: true })),
    me: define<void, CurrentUser>('signedIn', async (caller) => me(caller)),
    changeOwnPassword: define<unknown, true>('signedIn', async (caller, body) =>
      passwords.changeOwn(httpRequestOf(caller, 'A password change'), caller.reply, ownUserId(caller), fields(body)),
    ),
    resetPassword: define<{ userId: string; body: unknown }, true>([USER_UPDATE], async (caller, { userId, body }) => passwords.reset(caller.context, userId, fields(body))),
    setAvatar: define<{ read: () => Promise<UploadedContent> }, UploadedFile>('signedIn', async (caller, { read }) => setAvatar(ownUserId(caller), await read())),
    register: define<unknown, Fields>('public', async (_caller, body) => selfService.register(body)),
    requestRecovery: define<unknown, { ok: true }>('public', async (_caller, body) => selfService.requestRecovery(body)),
    completeRecovery: define<unknown, true>('public', async (_caller, body) => selfService.completeRecovery(body)),
    permissions: define<void, string[]>('signedIn', async () => directory.permissions()),
    rolesAll: define<void, Records>('signedIn', async ({ context }) => directory.rolesAll(context)),
    rolesAssignable: define<void, Records>('signedIn', async ({ context }) => directory.rolesAssignable(context)),
    tenantsAll: define<void, Records>('signedIn', async ({ context }) => directory.tenantsAll(context)),
  };
}

/** A body's fields: anything but an object reads as no fields (each operation then names what is missing). */
function fields(body: unknown): Fields {
  return body !== null && typeof body === 'object' ? (body as Fields) : {};
}

/** The caller's own user, for operations on one's own account: system() has none to act on. */
function ownUserId(caller: OperationCaller): string {
  const { userId } = caller.context;
  if (userId === null) throw new Error('This identity operation acts on the caller\'s own account: call it with a signed-in user\'s context, not system()');
  return userId;
}

/** Attempt counters are kept per address: these operations run only over HTTP. */
function httpRequestOf(caller: OperationCaller, what: string): FastifyRequest {
  if (!caller.request) throw new Error(`${what} counts attempts per caller address: run it with the HTTP request (callerOf)`);
  return caller.request;
}
