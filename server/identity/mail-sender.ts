import path from 'node:path';
import type { SettingsStore } from '../settings/settings-store.ts';
import { createMailer, type Mailer, type MailerLogger, type SmtpConfig } from './mailer.ts';

/**
 * The mailer for the current SMTP settings (smtp.* keys, else SMTP_* environment variables);
 * without a host, messages go to DATA_DIR/outbox as .eml files. Rebuilt when the settings change.
 */
export function createMailSender(deps: { settings: SettingsStore; dataDir: string; logger: MailerLogger; env?: NodeJS.ProcessEnv }) {
  const env = deps.env ?? process.env;
  let current: { key: string; mailer: Mailer } | null = null;
  const pick = async (key: string, envName: string) => (await deps.settings.getString(key)) ?? (env[envName]?.trim() || null);

  return async function mailer(): Promise<Mailer> {
    const host = await pick('smtp.host', 'SMTP_HOST');
    let smtp: SmtpConfig | null = null;
    if (host) {
      const port = (await deps.settings.getNumber('smtp.port')) ?? (Number(env.SMTP_PORT) || 587);
      smtp = {
        host,
        port,
        secure: (await deps.settings.get('smtp.secure')) === true || env.SMTP_SECURE === 'true',
        user: (await pick('smtp.user', 'SMTP_USER')) ?? undefined,
        password: (await pick('smtp.password', 'SMTP_PASSWORD')) ?? undefined,
        from: (await pick('smtp.from', 'SMTP_FROM')) ?? 'Forja <no-reply@localhost>',
      };
    }
    const key = JSON.stringify(smtp);
    if (!current || current.key !== key) {
      current = { key, mailer: createMailer({ smtp, outboxDir: path.join(deps.dataDir, 'outbox'), logger: deps.logger }) };
    }
    return current.mailer;
  };
}
