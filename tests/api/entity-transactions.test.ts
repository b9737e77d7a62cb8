// Issue 17: each create, update and delete is one database transaction with its hooks' own
// writes (server/entities/README.md, "Transactions"): a hook that fails after the write leaves
// nothing behind, on SQLite and on PostgreSQL (--project api-postgres runs this file there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../server/http/http-error.ts';
import { system } from '../../server/entities/system-context.ts';
import type { EntityService } from '../../server/entities/entity-service.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
let service: EntityService;
/** Lets a test hold a create inside its transaction (after the INSERT) until it says so. */
let holdAfterInsert: Promise<void> | null = null;
let insertDone: (() => void) | null = null;

const filter = (name: string) => ({
  limit: 10,
  offset: 0,
  orderBy: null,
  order: 'asc' as const,
  search: null,
  filters: [{ column: 'name', operator: 'eq' as const, value: name, list: false }],
});

async function contactsNamed(name: string) {
  return service.find('contact', system(), filter(name));
}

async function statusesNamed(name: string) {
  return service.find('bottracestatus', system(), filter(name));
}

beforeAll(async () => {
  server = await startTestServer();
  service = server.forja.service;
  service.hooks.add('contact', {
    async afterChange(event) {
      const name = String(event.record.name);
      if (name.startsWith('Hold')) {
        insertDone?.();
        await holdAfterInsert;
      }
      if (name.startsWith('Writes then fails')) {
        // A hook's own write, through the service, into another entity: part of the same transaction.
        await service.create('bottracestatus', system(), { name: `status of ${name}`, description: 'written by a hook' });
        throw new HttpError(409, 'The hook refused after the write', { i18nMessage: 'error.conflict' });
      }
      if (name.startsWith('Fails after')) throw new Error(`afterChange failed for ${name}`);
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('a write and its hooks are one transaction', () => {
  it('an afterChange that throws after the INSERT leaves no row', async () => {
    await expect(service.create('contact', system(), { name: 'Fails after insert', email: 'a@example.com' })).rejects.toThrow(
      'afterChange failed for Fails after insert',
    );
    expect(await contactsNamed('Fails after insert')).toEqual([]);
  });

  it('the hook’s own writes are rolled back with the row, and the caller gets the hook’s error over REST', async () => {
    const res = await server.post('/api/contacts', { name: 'Writes then fails', email: 'b@example.com' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The hook refused after the write');
    expect(await contactsNamed('Writes then fails')).toEqual([]);
    expect(await statusesNamed('status of Writes then fails')).toEqual([]);
  });

  it('an update whose afterChange throws keeps the stored record as it was', async () => {
    const created = await service.create('contact', system(), { name: 'Before update', email: 'c@example.com' });
    const res = await server.put(`/api/contacts/${created._id as string}`, { name: 'Fails after update', email: 'changed@example.com' });
    expect(res.status).toBe(500);
    const stored = await service.findById('contact', system(), created._id as string);
    expect(stored.name).toBe('Before update');
    expect(stored.email).toBe('c@example.com');
  });

  it('a successful write commits the row and its hook’s writes', async () => {
    const res = await server.post('/api/contacts', { name: 'Plain contact', email: 'd@example.com' });
    expect(res.status).toBe(201);
    expect((await contactsNamed('Plain contact')).map((c) => c._id)).toEqual([res.body._id]);
  });

  it('while a write is open, other requests read the committed data and their writes wait for it', async () => {
    let release!: () => void;
    holdAfterInsert = new Promise((resolve) => (release = resolve));
    const inserted = new Promise<void>((resolve) => (insertDone = resolve));
    const held = service.create('contact', system(), { name: 'Hold in transaction', email: 'e@example.com' });
    await inserted;
    // The INSERT ran, the transaction is still open: nobody else sees the row yet.
    expect(await contactsNamed('Hold in transaction')).toEqual([]);
    const other = server.post('/api/contacts', { name: 'Written meanwhile', email: 'f@example.com' });
    release();
    const [record, otherRes] = await Promise.all([held, other]);
    holdAfterInsert = null;
    insertDone = null;
    expect(otherRes.status).toBe(201);
    expect((await contactsNamed('Hold in transaction')).map((c) => c._id)).toEqual([record._id]);
    expect((await contactsNamed('Written meanwhile')).map((c) => c._id)).toEqual([otherRes.body._id]);
  });

  it('an import whose afterChange fails on one row leaves none of its rows', async () => {
    service.hooks.add('bottracestatus', {
      afterChange(event) {
        if (event.record.name === 'import-row-fails') throw new Error('afterChange refused import-row-fails');
      },
    });
    const file = 'name,description\nimport-row-kept,first\nimport-row-fails,second\n';
    const res = await server.upload('/api/bot-trace-statuses/import?format=CSV', { name: 'statuses.csv', content: file });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await statusesNamed('import-row-kept')).toEqual([]);
    expect(await statusesNamed('import-row-fails')).toEqual([]);
  });

  it('a nested transaction that fails undoes its own writes only', async () => {
    const database = server.forja.database;
    const outcome = await database.transaction(async () => {
      await service.create('bottracestatus', system(), { name: 'outer status', description: 'kept' });
      await database
        .transaction(async () => {
          await service.create('bottracestatus', system(), { name: 'inner status', description: 'undone' });
          throw new Error('inner failure');
        })
        .catch((error: Error) => error.message);
      return 'outer done';
    });
    expect(outcome).toBe('outer done');
    expect(await statusesNamed('outer status')).toHaveLength(1);
    expect(await statusesNamed('inner status')).toEqual([]);
  });
});
