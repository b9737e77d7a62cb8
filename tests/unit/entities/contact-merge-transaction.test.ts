import { afterEach, beforeEach, expect, it } from 'vitest';
import { contactMergeOperation } from '../../../server/chat/contact-merge.ts';
import type { Database } from '../../../server/db/database.ts';
import type { EntityService } from '../../../server/entities/entity-service.ts';
import { system } from '../../../server/entities/system-context.ts';
import { entities } from '../../../server/generated/entities.ts';
import { HttpError } from '../../../server/http/http-error.ts';
import { permissionAuthorizer } from '../../../server/identity/permission-authorizer.ts';
import { operationDefiner } from '../../../server/operations/define-operation.ts';
import { openEntityTestDatabase, type EntityTestDatabase } from './entity-test-database.ts';

/**
 * The contact merge's writes (target memory, conversations moved, source deleted) are one
 * transaction: a failure at the last step leaves both contacts and every conversation as they were.
 */
let engine: EntityTestDatabase;
let database: Database;
let service: EntityService;

beforeEach(async () => {
  engine = await openEntityTestDatabase('forja-merge-');
  ({ database, service } = engine);
});

afterEach(() => engine.close());

it('a merge whose last step fails changes nothing', async () => {
  const ctx = system();
  const bot = await service.create('bot', ctx, { name: 'Bot', description: 'Bot description' });
  const source = await service.create('contact', ctx, { name: 'Source', memory: [{ attribute: 'pedido', content: '42' }] });
  const target = await service.create('contact', ctx, { name: 'Target', memory: [] });
  const conversation = await service.create('conversation', ctx, { contact: source._id, bot: bot._id, chats: [] });
  // The deletion of the source, the merge's last write, is refused.
  service.hooks.add('contact', {
    beforeDelete: () => {
      throw new HttpError(409, 'refused for the test');
    },
  });
  const merge = contactMergeOperation({ service, database, entities, defineOperation: operationDefiner(permissionAuthorizer) });
  const caller = { context: { userId: 'admin', tenantId: null, permissions: ['contact:manage'] } };
  const error = await merge(caller, { id: String(source._id), body: { into: target._id } }).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).statusCode).toBe(409);
  expect((await service.findById('contact', ctx, String(target._id))).memory).toEqual([]);
  expect((await service.findById('contact', ctx, String(source._id))).name).toBe('Source');
  const stored = await service.findById('conversation', ctx, String(conversation._id), { populate: false });
  expect(stored.contact).toBe(source._id);
});
