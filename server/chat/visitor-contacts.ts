import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { ListQuery } from '../entities/list-query.ts';
import { encodeValues } from '../entities/record-codec.ts';
import { system } from '../entities/system-context.ts';
import { HttpError } from '../http/http-error.ts';

/**
 * The contact side of e-mail verification: which contact a proven e-mail joins, moving a
 * conversation to it, and the visitor's last conversation with a bot. Through the entity service
 * as system(), which may set what is read-only in the console (contacts' `verified`,
 * conversations' `contact`); one read stays raw SQL (ownerOf, says why).
 */
export class VisitorContacts {
  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
  ) {}

  async email(contactId: string): Promise<string | null> {
    const [contact] = await this.service.findByIds('contact', system(), [contactId], IDS);
    return contact && typeof contact.email === 'string' && contact.email !== '' ? contact.email : null;
  }

  /**
   * The contact a proven e-mail belongs to in a tenant: the oldest one already verified or made
   * in the console (verified empty). Never an unverified chat contact: anyone could have typed
   * that e-mail before and planted a name or a conversation there.
   */
  async ownerOf(tenant: string | null, email: string, except: string): Promise<string | null> {
    // Raw SQL, a read only: case-insensitive equality on the e-mail (console-made contacts keep the
    // case typed) and "verified or never set" are conditions the service's list filters cannot express.
    const definition = this.service.definition('contact');
    const tenantColumn = definition.tenantColumn;
    const verified = encodeValues(definition, this.database.dialect, { verified: true }).verified;
    let query = this.database.kysely
      .selectFrom(definition.table)
      .select(['_id'])
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .where('_id', '!=', except)
      .where((eb) => eb.or([eb('verified', '=', verified), eb('verified', 'is', null)]));
    if (tenantColumn) query = tenant === null ? query.where(tenantColumn, 'is', null) : query.where(tenantColumn, '=', tenant);
    const row = await this.database.first(query.orderBy('createdAt', 'asc').orderBy('_id', 'asc').limit(1).compile());
    return row ? String(row._id) : null;
  }

  async markVerified(contactId: string): Promise<void> {
    // verified is read-only for every client: system() sets it.
    await this.service.update('contact', system(), contactId, { verified: true }, IDS);
  }

  async moveConversation(conversationId: string, contactId: string): Promise<void> {
    // A move is not an edit of the conversation: its updatedAt (which one is the visitor's last) stays.
    await this.service.update('conversation', system(), conversationId, { contact: contactId }, { ...IDS, touch: false });
  }

  async deleteConversation(conversationId: string): Promise<void> {
    await ignoreGone(this.service.delete('conversation', system(), conversationId));
  }

  /** Deletes a chat-made contact left without conversations (the one a verified visitor leaves behind). */
  async deleteIfUnused(contactId: string): Promise<void> {
    const used = await this.service.find('conversation', system(), where({ contact: contactId }, 1), IDS);
    if (used.length > 0) return;
    await ignoreGone(this.service.delete('contact', system(), contactId));
  }

  /** The contact's most recently updated conversation with the bot, or null. */
  async lastConversation(contactId: string, botId: string): Promise<string | null> {
    const [last] = await this.service.find('conversation', system(), { ...where({ contact: contactId, bot: botId }, 1), orderBy: 'updatedAt', order: 'desc' }, IDS);
    return last ? String(last._id) : null;
  }
}

const IDS = { populate: false } as const;

function where(equals: Record<string, string>, limit: number): ListQuery {
  const filters = Object.entries(equals).map(([column, value]) => ({ column, operator: 'eq' as const, value, list: false }));
  return { limit, offset: 0, orderBy: null, order: 'asc', search: null, filters };
}

/** Already deleted (by the console, or another request): what the caller wanted. */
async function ignoreGone(write: Promise<void>): Promise<void> {
  await write.catch((error: unknown) => {
    if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
  });
}
