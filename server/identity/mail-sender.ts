import path from 'node:path';
import type { EffectiveConfigReader } from '../config/resolve-effective-config.ts';
import { privateFolder } from '../files/private-folders.ts';
import { createMailer, type Mailer, type MailerLogger } from './mailer.ts';

/**
 * The mailer for the current SMTP settings (smtp.* over SMTP_*, resolved with the rest of the
 * effective configuration: server/config/resolve-effective-config.ts); without a host, messages go
 * to DATA_DIR/outbox as .eml files. Rebuilt when the settings change.
 */
export function createMailSender(deps: { readConfig: EffectiveConfigReader; dataDir: string; logger: MailerLogger }) {
  let current: { key: string; mailer: Mailer } | null = null;

  return async function mailer(): Promise<Mailer> {
    const { smtp } = await deps.readConfig();
    const key = JSON.stringify(smtp);
    if (!current || current.key !== key) {
      current = { key, mailer: createMailer({ smtp, outboxDir: privateFolder(deps.dataDir, 'outbox'), logger: deps.logger }) };
    }
    return current.mailer;
  };
}
