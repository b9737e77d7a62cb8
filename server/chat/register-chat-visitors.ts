import type { FastifyInstance } from 'fastify';
import type { FeatureDependencies } from '../http/server-features.ts';
import { createMailSender } from '../identity/mail-sender.ts';
import { readOrCreateSecret } from '../identity/secret-store.ts';
import type { ChatStore } from './chat-store.ts';
import { registerChatVisitorRoutes } from './chat-visitor-routes.ts';
import { ContactVerification } from './contact-verification.ts';
import { ConversationTokens } from './conversation-token.ts';
import { EmailCodes } from './email-codes.ts';
import { VisitorContacts } from './visitor-contacts.ts';

/**
 * Builds and registers issue 20's visitor side (origins, frame policy, e-mail codes, resume
 * tokens, /widget.js) before the chat routes, so its hooks cover them. Returns the token signer
 * the chat service hands out on start and the e-mail verification (its routes: chat-visitor-routes.ts).
 */
export async function registerChatVisitors(app: FastifyInstance, deps: FeatureDependencies, store: ChatStore): Promise<{ tokens: ConversationTokens; verification: ContactVerification }> {
  // Keyed from the token secret, like export links: the same on every instance.
  const secret = readOrCreateSecret(deps.config.dataDir, 'jwt-secret', deps.identity.config.jwtSecret).value;
  const tokens = new ConversationTokens(secret);
  const codes = new EmailCodes(deps.database, secret);
  const verification = new ContactVerification({
    store,
    contacts: new VisitorContacts(deps.database, deps.service),
    codes,
    tokens,
    mailer: createMailSender({ readConfig: deps.effectiveConfig, dataDir: deps.config.dataDir, logger: app.log }),
    log: app.log,
  });
  registerChatVisitorRoutes(app, { store });
  return { tokens, verification };
}
