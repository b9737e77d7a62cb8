import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { EntityRecord, EntityService } from '../entities/entity-service.ts';
import { routePermission } from '../entities/route-permission.ts';
import { systemIn } from '../entities/system-context.ts';
import { HttpError } from '../http/http-error.ts';
import type { RequestContext } from '../http/request-context.ts';
import type { DefineOperation, Operation } from '../operations/define-operation.ts';

type MemoryEntry = { attribute?: string | null; content?: string | null };

/** Conversations moved per read: each move takes the conversation out of the next read. */
const PAGE = 100;

export interface ContactMergeInput {
  /** The contact merged away (deleted once its conversations and memory moved). */
  id: string;
  /** `{ into: "<id of the contact that keeps the conversations>" }`, as sent. */
  body: unknown;
}

export interface ContactMergeResult {
  into: string;
  movedConversations: number;
  addedMemory: number;
}

/**
 * The contact merge (issue 20's "an administrator can merge later"): a visitor who gave a known
 * e-mail without proving it gets a new, unverified contact; this moves that contact's
 * conversations and memory to the real one and deletes it. The caller needs the contact's update
 * and delete permissions (the merge deletes the source, as the generic DELETE does).
 *
 * Every check runs first (nothing written when one fails); then the target's memory (validated by
 * the service: over the limit is a 400), the conversations and the deletion of the source run in
 * one database transaction (Database.transaction: the service's own writes nest in it), so a
 * failure at any step leaves both contacts as they were.
 */
export function contactMergeOperation(deps: { service: EntityService; database: Database; entities: EntityModelMap; defineOperation: DefineOperation }): Operation<ContactMergeInput, ContactMergeResult> {
  const { service, database, entities } = deps;
  const contact = entities.contact;
  if (!contact) throw new Error('contactMergeOperation: the contact entity is missing from the models (manifests/contact.json)');
  const tenantColumn = service.definition('contact').tenantColumn;
  const memoryLimit = contact.fields.find((field) => field.name === 'memory')?.validation.maxItems ?? null;

  return deps.defineOperation<ContactMergeInput, ContactMergeResult>([routePermission(contact, 'update'), routePermission(contact, 'delete')], async (caller, input) => {
    const into = parseInto(input.body);
    const id = input.id;
    if (into === id) {
      throw new HttpError(400, 'A contact cannot be merged into itself: choose another contact as "into"', {
        i18nMessage: 'error.contactMerge.sameContact',
        inputErrors: [{ field: 'into', reason: 'error.contactMerge.sameContact' }],
      });
    }
    // Read as the caller: a contact of another tenant is a 404, as for the generic routes.
    const context: RequestContext = caller.context;
    const source = await service.findById('contact', context, id);
    const target = await service.findById('contact', context, into);
    const tenant = tenantColumn ? (target[tenantColumn] ?? null) : null;
    if (tenantColumn && (source[tenantColumn] ?? null) !== tenant) {
      throw new HttpError(400, 'Contacts of different tenants cannot be merged: choose a contact of the same tenant as "into"', {
        i18nMessage: 'error.contactMerge.otherTenant',
        inputErrors: [{ field: 'into', reason: 'error.contactMerge.otherTenant' }],
      });
    }
    const memory = mergedMemory(memoryOf(target), memoryOf(source));
    if (memoryLimit !== null && memory.added > 0 && memory.entries.length > memoryLimit) {
      throw new HttpError(400, `Merging would leave ${memory.entries.length} memory entries on the target contact, over the limit of ${memoryLimit}: remove entries from either contact first`, {
        i18nMessage: 'error.contactMerge.memoryLimit',
        inputErrors: [{ field: 'memory', reason: 'validation.maxItems' }],
      });
    }
    return database.transaction(async () => {
      if (memory.added > 0) await service.update('contact', context, into, { memory: memory.entries });
      // A conversation's contact is read-only for users; the merge is the server's own act, confined
      // to the contacts' tenant and allowed only after the caller's checks above.
      const feature = systemIn(typeof tenant === 'string' ? tenant : null);
      const moved = new Set<string>();
      for (;;) {
        const page = await service.find('conversation', feature, {
          limit: PAGE, offset: 0, orderBy: null, order: 'asc', search: null,
          filters: [{ column: 'contact', operator: 'eq', value: id, list: false }],
        });
        if (page.length === 0) break;
        for (const conversation of page) {
          const conversationId = String(conversation._id);
          // A move that did not take would otherwise be read back forever.
          if (moved.has(conversationId)) throw new Error(`Contact merge: conversation ${conversationId} still belongs to contact ${id} after being moved to ${into}`);
          await service.update('conversation', feature, conversationId, { contact: into });
          moved.add(conversationId);
        }
      }
      await service.delete('contact', context, id);
      return { into, movedConversations: moved.size, addedMemory: memory.added };
    });
  });
}

function parseInto(body: unknown): string {
  const into = body && typeof body === 'object' ? (body as Record<string, unknown>).into : undefined;
  if (typeof into !== 'string' || into.trim() === '') {
    throw new HttpError(400, 'Missing "into": send { "into": "<id of the contact that keeps the conversations>" }', {
      i18nMessage: 'validation.required',
      inputErrors: [{ field: 'into', reason: 'validation.required' }],
    });
  }
  return into;
}

function memoryOf(record: EntityRecord): MemoryEntry[] {
  return Array.isArray(record.memory) ? (record.memory as MemoryEntry[]) : [];
}

/** The target's entries, then the source's that are not exact duplicates of one already there. */
function mergedMemory(target: MemoryEntry[], source: MemoryEntry[]): { entries: MemoryEntry[]; added: number } {
  const key = (entry: MemoryEntry) => JSON.stringify([entry.attribute ?? null, entry.content ?? null]);
  const seen = new Set(target.map(key));
  const entries = [...target];
  for (const entry of source) {
    if (seen.has(key(entry))) continue;
    seen.add(key(entry));
    entries.push({ ...(entry.attribute != null ? { attribute: entry.attribute } : {}), ...(entry.content != null ? { content: entry.content } : {}) });
  }
  return { entries, added: entries.length - target.length };
}
