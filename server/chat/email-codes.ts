import type { Database } from '../db/database.ts';
import { HttpError } from '../http/http-error.ts';
import { countWrongAttempt, expiryOf, hasExpired, hashCode, matchesHash, randomDigits, tookEffect, type CodeKey } from '../identity/single-use-code.ts';

const TABLE = 'chat_email_codes';
export const EMAIL_CODE_LIFETIME_MS = 10 * 60 * 1000;
/** Wrong codes allowed per code; then it is dead and a new one must be asked for. */
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
/** Codes one conversation may ask for: each is an e-mail to an address the visitor merely typed. */
export const EMAIL_CODE_MAX_ISSUED = 5;
export const EMAIL_CODE_RESEND_MS = 30 * 1000;

export type CodeCheck = { ok: true; email: string } | { ok: false; reason: 'none' | 'expired' | 'locked' | 'wrong'; attemptsLeft: number };

/**
 * One-time codes proving a visitor reads the e-mail they typed (6 digits, 10 minutes, 5 tries,
 * single use). One pending code per conversation; stored as an HMAC bound to the conversation,
 * never in clear (server/identity/single-use-code.ts, as identity's recovery codes). A private
 * table of the chat: nothing of it belongs in the console.
 */
export class EmailCodes {
  constructor(
    private readonly database: Database,
    private readonly secret: string,
  ) {}

  /** A new code for the conversation (replacing a pending one), or 429 when asked too often. */
  async issue(conversationId: string, email: string, now = Date.now()): Promise<string> {
    const row = await this.row(conversationId);
    const issued = row ? Number(row.issued) : 0;
    if (row && now - Date.parse(String(row.issuedAt)) < EMAIL_CODE_RESEND_MS) {
      throw new HttpError(429, `A code was sent less than ${EMAIL_CODE_RESEND_MS / 1000} s ago; wait before asking for another`, { i18nMessage: 'chat.verify.wait' });
    }
    if (issued >= EMAIL_CODE_MAX_ISSUED) {
      throw new HttpError(429, `This conversation already asked for ${EMAIL_CODE_MAX_ISSUED} codes; start a new conversation to try again`, { i18nMessage: 'chat.verify.tooManyCodes' });
    }
    const code = randomDigits(6);
    const values = {
      email,
      codeHash: hashCode(code, this.key(conversationId)),
      expiresAt: expiryOf(now, EMAIL_CODE_LIFETIME_MS),
      issuedAt: new Date(now).toISOString(),
      attempts: 0,
      issued: issued + 1,
    };
    const { kysely } = this.database;
    await this.database.run(
      row
        ? kysely.updateTable(TABLE).set(values).where('conversationId', '=', conversationId).compile()
        : kysely.insertInto(TABLE).values({ conversationId, ...values }).compile(),
    );
    return code;
  }

  /** Checks a code; the right one is consumed (a second use finds none). */
  async check(conversationId: string, code: string, now = Date.now()): Promise<CodeCheck> {
    const row = await this.row(conversationId);
    if (!row || String(row.codeHash) === '') return { ok: false, reason: 'none', attemptsLeft: 0 };
    const attempts = Number(row.attempts);
    if (attempts >= EMAIL_CODE_MAX_ATTEMPTS) return { ok: false, reason: 'locked', attemptsLeft: 0 };
    if (hasExpired(row.expiresAt, now)) return { ok: false, reason: 'expired', attemptsLeft: 0 };
    if (!matchesHash(String(row.codeHash), code, this.key(conversationId))) {
      const counted = await countWrongAttempt(this.database, { table: TABLE, column: 'conversationId', value: conversationId }, EMAIL_CODE_MAX_ATTEMPTS);
      const left = Math.max(0, EMAIL_CODE_MAX_ATTEMPTS - attempts - 1);
      return !counted || left === 0 ? { ok: false, reason: 'locked', attemptsLeft: 0 } : { ok: false, reason: 'wrong', attemptsLeft: left };
    }
    // Consumed by clearing the hash (the row keeps counting issued codes): only one request wins.
    const consumed = await tookEffect(
      this.database,
      this.database.kysely.updateTable(TABLE).set({ codeHash: '' }).where('conversationId', '=', conversationId).where('codeHash', '=', String(row.codeHash)).compile(),
    );
    if (!consumed) return { ok: false, reason: 'none', attemptsLeft: 0 };
    return { ok: true, email: String(row.email) };
  }

  private row(conversationId: string) {
    return this.database.first(this.database.kysely.selectFrom(TABLE).selectAll().where('conversationId', '=', conversationId).compile());
  }

  /** A code is bound to the conversation it was sent for. */
  private key(conversationId: string): CodeKey {
    return { secret: this.secret, scope: conversationId };
  }
}
