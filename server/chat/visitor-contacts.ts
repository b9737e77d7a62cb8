import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { encodeValues } from '../entities/record-codec.ts';

/**
 * The contact side of e-mail verification: which contact a proven e-mail joins, moving a
 * conversation to it, and the visitor's last conversation with a bot. Written against the tables
 * directly, like ChatStore, because contacts' `verified` and conversations' `contact` are read-only
 * in the console.
 */
export class VisitorContacts {
  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
  ) {}

  async email(contactId: string): Promise<string | null> {
    const runtime = this.service.runtime('contact');
    const row = await this.database.first(
      this.database.kysely.selectFrom(runtime.table).select(['email']).where('_id', '=', contactId).limit(1).compile(),
    );
    return row && typeof row.email === 'string' && row.email !== '' ? row.email : null;
  }

  /**
   * The contact a proven e-mail belongs to in a tenant: the oldest one already verified or made
   * in the console (verified empty). Never an unverified chat contact: anyone could have typed
   * that e-mail before and planted a name or a conversation there.
   */
  async ownerOf(tenant: string | null, email: string, except: string): Promise<string | null> {
    const runtime = this.service.runtime('contact');
    const tenantColumn = runtime.tenantColumn;
    const verified = encodeValues(runtime, this.database.dialect, { verified: true }).verified;
    let query = this.database.kysely
      .selectFrom(runtime.table)
      .select(['_id'])
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .where('_id', '!=', except)
      .where((eb) => eb.or([eb('verified', '=', verified), eb('verified', 'is', null)]));
    if (tenantColumn) query = tenant === null ? query.where(tenantColumn, 'is', null) : query.where(tenantColumn, '=', tenant);
    const row = await this.database.first(query.orderBy('createdAt', 'asc').orderBy('_id', 'asc').limit(1).compile());
    return row ? String(row._id) : null;
  }

  async markVerified(contactId: string): Promise<void> {
    const runtime = this.service.runtime('contact');
    const values = encodeValues(runtime, this.database.dialect, { verified: true, updatedAt: new Date().toISOString() });
    await this.database.run(this.database.kysely.updateTable(runtime.table).set(values).where('_id', '=', contactId).compile());
  }

  async moveConversation(conversationId: string, contactId: string): Promise<void> {
    const runtime = this.service.runtime('conversation');
    await this.database.run(this.database.kysely.updateTable(runtime.table).set({ contact: contactId }).where('_id', '=', conversationId).compile());
  }

  async deleteConversation(conversationId: string): Promise<void> {
    const runtime = this.service.runtime('conversation');
    await this.database.run(this.database.kysely.deleteFrom(runtime.table).where('_id', '=', conversationId).compile());
  }

  /** Deletes a chat-made contact left without conversations (the one a verified visitor leaves behind). */
  async deleteIfUnused(contactId: string): Promise<void> {
    const conversations = this.service.runtime('conversation');
    const used = await this.database.first(
      this.database.kysely.selectFrom(conversations.table).select(['_id']).where('contact', '=', contactId).limit(1).compile(),
    );
    if (used) return;
    const contacts = this.service.runtime('contact');
    await this.database.run(this.database.kysely.deleteFrom(contacts.table).where('_id', '=', contactId).compile());
  }

  /** The contact's most recently updated conversation with the bot, or null. */
  async lastConversation(contactId: string, botId: string): Promise<string | null> {
    const runtime = this.service.runtime('conversation');
    const row = await this.database.first(
      this.database.kysely
        .selectFrom(runtime.table)
        .select(['_id'])
        .where('contact', '=', contactId)
        .where('bot', '=', botId)
        .orderBy('updatedAt', 'desc')
        .orderBy('_id', 'desc')
        .limit(1)
        .compile(),
    );
    return row ? String(row._id) : null;
  }
}
