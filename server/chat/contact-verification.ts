import { HttpError, validationError } from '../http/http-error.ts';
import type { Mailer } from '../identity/mailer.ts';
import type { ChatStore } from './chat-store.ts';
import type { ConversationView } from './chat-types.ts';
import type { ConversationTokens } from './conversation-token.ts';
import { EMAIL_CODE_LIFETIME_MS, type EmailCodes } from './email-codes.ts';
import type { VisitorContacts } from './visitor-contacts.ts';

/** A conversation with the token the browser keeps to come back to it. */
export type ResumableConversation = ConversationView & { token: string };

export interface ContactVerificationDeps {
  store: ChatStore;
  contacts: VisitorContacts;
  codes: EmailCodes;
  tokens: ConversationTokens;
  mailer: () => Promise<Mailer>;
  log: { error(object: object, message: string): void };
}

/**
 * Contacts stay private until the visitor proves the e-mail (issue 20 item 3). A chat starts with
 * a new unverified contact whatever e-mail is typed; asking for a code sends it to that e-mail
 * (the same answer whether or not a contact has it); the right code joins the conversation to the
 * contact owning that e-mail and resumes that contact's last conversation with the bot.
 */
export class ContactVerification {
  constructor(private readonly deps: ContactVerificationDeps) {}

  async requestCode(conversationId: string): Promise<{ sent: true; expiresInSeconds: number }> {
    const conversation = await this.deps.store.conversation(conversationId);
    const email = await this.deps.contacts.email(conversation.contactId);
    if (!email) throw new HttpError(400, 'This conversation has no e-mail to verify', { i18nMessage: 'chat.verify.noEmail' });
    const code = await this.deps.codes.issue(conversationId, email);
    const bot = await this.deps.store.bot(conversation.botId);
    const minutes = EMAIL_CODE_LIFETIME_MS / 60_000;
    try {
      const mailer = await this.deps.mailer();
      await mailer.send({
        to: email,
        subject: `${bot.name}: código de verificación / verification code`,
        text:
          `Tu código para continuar la conversación con ${bot.name} es: ${code}\n` +
          `Caduca en ${minutes} minutos. Si no lo pediste, ignora este mensaje.\n\n` +
          `Your code to continue the conversation with ${bot.name} is: ${code}\n` +
          `It expires in ${minutes} minutes. If you did not ask for it, ignore this message.\n`,
      });
    } catch (error) {
      this.deps.log.error({ err: error }, 'chat verification e-mail could not be sent');
      throw new HttpError(502, 'The verification e-mail could not be sent; try again later', { i18nMessage: 'chat.verify.mailFailed' });
    }
    return { sent: true, expiresInSeconds: EMAIL_CODE_LIFETIME_MS / 1000 };
  }

  async verify(conversationId: string, body: unknown): Promise<ResumableConversation> {
    const code = typeof (body as { code?: unknown } | null)?.code === 'string' ? (body as { code: string }).code.trim() : '';
    if (!/^\d{6}$/.test(code)) throw validationError([{ field: 'code', reason: 'chat.verify.codeFormat' }], 'The code is the 6 digits sent by e-mail');
    const conversation = await this.deps.store.conversation(conversationId);
    const result = await this.deps.codes.check(conversationId, code);
    if (!result.ok) throw codeRefused(result.reason, result.attemptsLeft);

    const { contacts } = this.deps;
    const owner = await contacts.ownerOf(conversation.tenant, result.email, conversation.contactId);
    let resumed = conversationId;
    if (owner) {
      // This conversation joins the proven contact; an empty one is dropped in favour of the last one.
      if (conversation.chats.length > 0) await contacts.moveConversation(conversationId, owner);
      else await contacts.deleteConversation(conversationId);
      await contacts.deleteIfUnused(conversation.contactId);
      resumed = (await contacts.lastConversation(owner, conversation.botId)) ?? conversationId;
      if (resumed === conversationId && conversation.chats.length === 0) {
        // The owner has no conversation with this bot yet: the visitor keeps this (empty) one.
        resumed = await this.deps.store.createConversation(conversation.tenant, owner, conversation.botId);
      }
    } else {
      await contacts.markVerified(conversation.contactId);
    }
    return { ...(await this.deps.store.conversationView(resumed)), token: this.deps.tokens.issue(resumed, conversation.botId) };
  }

  /** The conversation a browser's token points at, for that bot; 404 for any other token. */
  async resume(body: unknown): Promise<ResumableConversation> {
    const input = (body ?? {}) as { botId?: unknown; token?: unknown };
    const botId = typeof input.botId === 'string' ? input.botId : '';
    const id = this.deps.tokens.read(input.token, botId);
    const conversation = id ? await this.deps.store.conversation(id).catch(() => null) : null;
    if (!conversation || conversation.botId !== botId) {
      throw new HttpError(404, 'No conversation to resume for this token; start a new one', { i18nMessage: 'chat.error.resumeInvalid' });
    }
    return { ...(await this.deps.store.conversationView(conversation._id)), token: this.deps.tokens.issue(conversation._id, botId) };
  }
}

function codeRefused(reason: 'none' | 'expired' | 'locked' | 'wrong', attemptsLeft: number): HttpError {
  const texts = {
    none: 'There is no pending code for this conversation (it was used, or never asked for); ask for a new one',
    expired: 'The code has expired; ask for a new one',
    locked: 'Too many wrong codes; ask for a new one',
    wrong: `The code is not right; ${attemptsLeft} attempt(s) left`,
  } as const;
  return new HttpError(400, texts[reason], {
    i18nMessage: `chat.verify.${reason}`,
    ...(reason === 'wrong' ? { details: { i18nParams: { count: attemptsLeft } } } : {}),
    inputErrors: [{ field: 'code', reason: `chat.verify.${reason}` }],
  });
}
