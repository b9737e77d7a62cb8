import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { EntityService } from '../entities/entity-service.ts';
import { HttpError, validationError, type InputError } from '../http/http-error.ts';
import { system } from '../entities/system-context.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import type { Mailer } from './mailer.ts';
import { checkPasswordLength } from './password-policy.ts';
import { RECOVERY_CODE_LIFETIME_MS, type RecoveryCodes } from './recovery-codes.ts';
import type { UserAccounts } from './user-accounts.ts';
import type { TokenVersions } from './token-versions.ts';
import { defaultRoleId } from './default-role.ts';

export interface SelfServiceDeps {
  port: number;
  accounts: UserAccounts;
  service: EntityService;
  settings: SettingsStore;
  codes: RecoveryCodes;
  tokenVersions: TokenVersions;
  mailer: () => Promise<Mailer>;
  log: FastifyBaseLogger;
  /** app.publicUrl, else PUBLIC_URL (server/config/resolve-effective-config.ts). */
  readConfig: EffectiveConfigReader;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SelfService {
  /** `{ username, name, email, phone, password, confirmPassword }`: the new user, with the default role. */
  register(body: unknown): Promise<Record<string, unknown>>;
  /** `{ email }`: mails a recovery link when the address belongs to an active user; the same answer either way. */
  requestRecovery(body: unknown): Promise<{ ok: true }>;
  /** `{ recoveryCode, newPassword, confirmPassword? }`: sets the password and ends the user's sessions. */
  completeRecovery(body: unknown): Promise<true>;
}

/**
 * The work of public self-service (public operations of identity-operations.ts): registration and
 * password recovery, each behind its Settings switch (auth.registrationEnabled, default off;
 * auth.recoveryEnabled, default on). The routes rate limit them (account-routes.ts).
 */
export function createSelfService(deps: SelfServiceDeps): SelfService {
  const { accounts, service, settings, codes } = deps;
  return {
    async register(input) {
      if (!(await settings.getBoolean('auth.registrationEnabled'))) {
        throw new HttpError(403, 'Registration is disabled', { i18nMessage: 'error.registrationDisabled' });
      }
      const body = (input ?? {}) as Record<string, unknown>;
      const text = (field: string) => (typeof body[field] === 'string' ? (body[field] as string).trim() : '');
      const errors: InputError[] = [];
      for (const field of ['username', 'name', 'email', 'phone']) if (text(field) === '') errors.push({ field, reason: 'validation.required' });
      if (text('email') !== '' && !EMAIL.test(text('email'))) errors.push({ field: 'email', reason: 'validation.email.invalid' });
      const problem = checkPasswordLength(body.password, 'password');
      if (problem) errors.push(problem);
      else if (text('password') !== text('confirmPassword')) errors.push({ field: 'confirmPassword', reason: 'validation.password.confirmed' });
      if (errors.length > 0) throw validationError(errors);
      const role = await defaultRoleId(service, settings);
      // The generic create validates lengths and uniqueness (409 validation.unique) and hashes the password.
      const user = await service.create('user', system(), {
        username: text('username'), name: text('name'), email: text('email'), phone: text('phone'),
        password: body.password, role, active: true,
      });
      return user;
    },

    async requestRecovery(input) {
      await requireRecovery(settings);
      const email = typeof (input as Record<string, unknown> | null)?.email === 'string' ? ((input as { email: string }).email).trim() : '';
      if (!EMAIL.test(email)) throw validationError([{ field: 'email', reason: 'validation.email.invalid' }]);
      const account = await accounts.byEmail(email);
      if (account?.active && account.email) {
        const code = await codes.issue(account.id);
        const link = `${await publicUrl(deps)}/password/recovery/complete/${code}`;
        // Not awaited: the answer must not take longer when the address exists (a slow SMTP
        // server would tell). Failures are logged for the administrator.
        void deps.mailer()
          .then((mailer) => mailer.send({
            to: account.email!,
            subject: 'Recuperación de contraseña / Password recovery',
            text:
              `Para elegir una nueva contraseña abre este enlace (caduca en ${RECOVERY_CODE_LIFETIME_MS / 60_000} minutos):\n${link}\n\n` +
              `Código: ${code}\n\nSi no lo pediste, ignora este mensaje.\n\n` +
              `To choose a new password open the link above (it expires in 15 minutes). If you did not ask for it, ignore this message.\n`,
          }))
          .catch((error: unknown) => deps.log.error({ err: error }, 'password recovery e-mail could not be sent'));
      }
      // Same answer whether or not the address belongs to someone.
      return { ok: true };
    },

    async completeRecovery(input) {
      await requireRecovery(settings);
      const body = (input ?? {}) as Record<string, unknown>;
      const errors: InputError[] = [];
      if (typeof body.recoveryCode !== 'string' || body.recoveryCode.trim() === '') errors.push({ field: 'recoveryCode', reason: 'validation.required' });
      const problem = checkPasswordLength(body.newPassword, 'newPassword');
      if (problem) errors.push(problem);
      if (body.confirmPassword !== undefined && String(body.confirmPassword).trim() !== String(body.newPassword ?? '').trim()) {
        errors.push({ field: 'confirmPassword', reason: 'validation.password.confirmed' });
      }
      if (errors.length > 0) throw validationError(errors);
      const userId = await codes.consume((body.recoveryCode as string).trim());
      if (!userId) {
        throw new HttpError(400, 'The recovery code is invalid or has expired', {
          i18nMessage: 'error.invalidRecoveryCode',
          inputErrors: [{ field: 'recoveryCode', reason: 'validation.recoveryCode.invalid' }],
        });
      }
      // Whoever held a session of this account (the reason to recover, perhaps) loses it.
      await deps.tokenVersions.revoke(userId);
      await accounts.setPassword(userId, body.newPassword as string);
      return true;
    },
  };
}

async function requireRecovery(settings: SettingsStore): Promise<void> {
  if (!(await settings.getBoolean('auth.recoveryEnabled'))) {
    throw new HttpError(403, 'Password recovery is disabled', { i18nMessage: 'error.recoveryDisabled' });
  }
}

/** Links never use the request's Host header (an attacker could point them at their own site). */
async function publicUrl(deps: SelfServiceDeps): Promise<string> {
  const configured = (await deps.readConfig()).publicUrl ?? `http://localhost:${deps.port}`;
  return configured.replace(/\/+$/, '');
}
