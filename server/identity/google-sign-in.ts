import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityService } from '../entities/entity-service.ts';
import { HttpError, badRequest } from '../http/http-error.ts';
import { system } from '../entities/system-context.ts';
import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import { invalidCredentials, issueToken } from './sign-in.ts';
import type { Identity } from './create-identity.ts';
import type { CredentialLimits } from './credential-limits.ts';
import { defaultRoleId } from './default-role.ts';
import { createGoogleVerifier, GoogleLoginError, type GoogleVerifier } from './google-verifier.ts';
import type { UserAccounts } from './user-accounts.ts';

/** Google sign-in with the ID token Google gave the client: `{ accessToken }`. */
export type GoogleSignIn = (request: FastifyRequest, reply: FastifyReply | undefined, input: Record<string, unknown>) => Promise<{ accessToken: string }>;

/**
 * The work of Google sign-in (the public operation of identity-operations.ts, POST
 * /api/google/login and GraphQL `googleLogin`): every attempt counts against
 * the caller's Google sign-in limit first (credential-limits.ts, shared by both transports). The
 * ID token (credential) is verified against the client id (setting google.clientId, else
 * GOOGLE_CLIENT_ID). The user is found by e-mail or, when auth.googleAutoCreate is on, created
 * with the default role.
 */
export function createGoogleSignIn(deps: {
  identity: Identity;
  accounts: UserAccounts;
  service: EntityService;
  settings: SettingsStore;
  readConfig: EffectiveConfigReader;
  limits: CredentialLimits;
}): GoogleSignIn {
  const { identity, accounts, service, settings, limits } = deps;
  let verifier: { clientId: string; verify: GoogleVerifier } | null = null;

  return async (request, reply, input) => {
    await limits.googleLogin(request, reply);
    const clientId = (await deps.readConfig()).googleClientId;
    if (!clientId) {
      throw new HttpError(501, 'Google sign-in is not configured (setting google.clientId or GOOGLE_CLIENT_ID)', { i18nMessage: 'error.googleNotConfigured' });
    }
    const credential = input.credential;
    if (typeof credential !== 'string' || credential.trim() === '') throw badRequest('The body must have a "credential"');
    if (verifier?.clientId !== clientId) verifier = { clientId, verify: createGoogleVerifier(clientId, identity.config.googleCertificates) };
    let google;
    try {
      google = await verifier.verify(credential.trim());
    } catch (error) {
      if (error instanceof GoogleLoginError) throw new HttpError(401, error.message, { i18nMessage: 'error.googleRejected' });
      throw error;
    }
    let account = await accounts.byEmail(google.email);
    if (!account) {
      if (!(await settings.getBoolean('auth.googleAutoCreate'))) throw invalidCredentials();
      const taken = await accounts.byUsername(google.email);
      const created = await service.create('user', system(), {
        username: taken ? `${google.email}-${randomBytes(3).toString('hex')}` : google.email,
        name: google.name ?? google.email,
        email: google.email,
        phone: '-',
        // Never used: such a user signs in with Google (or recovers a password by e-mail).
        password: randomBytes(24).toString('base64url'),
        role: await defaultRoleId(service, settings),
        active: true,
      });
      if (google.picture) await accounts.setFields(String(created._id), { avatar: google.picture });
      account = await accounts.byId(String(created._id));
    }
    if (!account || !account.active) throw invalidCredentials();
    return { accessToken: await issueToken(identity, account) };
  };
}
