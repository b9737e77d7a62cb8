import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The key a browser keeps (localStorage) to resume its conversation with a bot: the conversation
 * and bot ids, signed with a key derived from the token secret, so a token is only ever one the
 * server issued, and only for that bot.
 */
export class ConversationTokens {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('forja chat conversation token v1').digest();
  }

  issue(conversationId: string, botId: string): string {
    return `v1.${conversationId}.${this.#sign(conversationId, botId)}`;
  }

  /** The conversation id of a token issued for `botId`; null for anything else. */
  read(token: unknown, botId: string): string | null {
    if (typeof token !== 'string' || token.length > 300) return null;
    const [version, conversationId, signature] = token.split('.');
    if (version !== 'v1' || !conversationId || !signature) return null;
    const expected = Buffer.from(this.#sign(conversationId, botId));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? conversationId : null;
  }

  #sign(conversationId: string, botId: string): string {
    return createHmac('sha256', this.#key).update(`${conversationId}\n${botId}`).digest('base64url');
  }
}
