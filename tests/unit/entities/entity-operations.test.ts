import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EntityExporter } from '../../../server/entities/entity-exporter.ts';
import type { EntityImporter } from '../../../server/entities/entity-importer.ts';
import type { EntityService } from '../../../server/entities/entity-service.ts';
import { entityOperations, type EntityOperations } from '../../../server/entities/operations/entity-operations.ts';
import { system } from '../../../server/entities/system-context.ts';
import { entities } from '../../../server/generated/entities.ts';
import { HttpError } from '../../../server/http/http-error.ts';
import type { RequestContext } from '../../../server/http/request-context.ts';
import { permissionAuthorizer } from '../../../server/identity/permission-authorizer.ts';
import { openEntityTestDatabase, type EntityTestDatabase } from './entity-test-database.ts';

/**
 * The entity operations run directly on a SQLite database in a temporary file: no HTTP server, no
 * transport. What every transport inherits is tested here once (access, input hygiene, list
 * defaults, hooks, transactions); the HTTP tests keep the transports' own contract.
 */
const caller = (permissions: string[], userId: string | null = 'u1'): { context: RequestContext } => ({ context: { userId, tenantId: null, permissions } });
const unused = {} as EntityExporter & EntityImporter;

let engine: EntityTestDatabase;
let service: EntityService;
let bots: EntityOperations;

beforeEach(async () => {
  engine = await openEntityTestDatabase('forja-operations-');
  service = engine.service;
  bots = entityOperations(entities.bot, { service, exporter: unused, importer: unused, authorizer: permissionAuthorizer });
});

afterEach(() => engine.close());

async function failure(work: Promise<unknown>): Promise<HttpError> {
  const error = await work.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

const bot = (name: string) => ({ name, description: `${name} description` });

describe('entity operations: access', () => {
  it('anonymous callers get 401, callers without the permission 403 naming it, and nothing is written', async () => {
    expect((await failure(bots.create(caller([], null), { data: bot('Anon') }))).statusCode).toBe(401);
    const denied = await failure(bots.create(caller(['bot:view']), { data: bot('Viewer') }));
    expect(denied.statusCode).toBe(403);
    expect(denied.message).toBe('Missing permission bot:create');
    expect((await service.find('bot', system(), { limit: 100, offset: 0, orderBy: null, order: 'asc', search: null, filters: [] } as never)).length).toBe(0);
  });

  it('each action needs its own permission, and :manage grants every one of them', async () => {
    const viewer = caller(['bot:view']);
    const manager = caller(['bot:manage']);
    const created = (await bots.create(manager, { data: bot('Managed') })) as { _id: string };
    expect(await bots.findById(viewer, { id: created._id })).toMatchObject({ name: 'Managed' });
    for (const [name, run] of [
      ['update', () => bots.update(viewer, { id: created._id, data: bot('Changed') })],
      ['delete', () => bots.delete(viewer, { id: created._id })],
    ] as const) {
      expect((await failure(run())).statusCode, name).toBe(403);
    }
    expect((await failure(bots.paginate(caller(['contact:manage']), {}))).statusCode).toBe(403);
    await bots.update(manager, { id: created._id, data: bot('Changed') });
    expect(await bots.delete(manager, { id: created._id })).toBe(true);
  });
});

describe('entity operations: input', () => {
  it('refuses NUL bytes and lone surrogates wherever they come from, after the access check', async () => {
    const manager = caller(['bot:manage']);
    for (const input of [{ data: bot('A\u0000B') }, { data: { ...bot('Fine'), description: 'x\ud800' } }, { query: { search: 'a\u0000' } }, { filters: [{ field: 'name', operator: 'eq', value: 'x\u0000' }] }]) {
      const error = await failure(input.data ? bots.create(manager, input) : bots.find(manager, input as never));
      expect(error.statusCode, JSON.stringify(input)).toBe(400);
    }
    // An unauthorised caller learns nothing about their input: 403, not 400.
    expect((await failure(bots.create(caller(['bot:view']), { data: bot('A\u0000B') }))).statusCode).toBe(403);
  });

  it('applies the list defaults: a page of 5, a find of 100, limits bounded', async () => {
    const manager = caller(['bot:manage']);
    for (let i = 0; i < 7; i++) await bots.create(manager, { data: bot(`Bot ${i}`) });
    const page = await bots.paginate(manager, {});
    expect(page).toMatchObject({ total: 7, page: 1, limit: 5 });
    expect(page.items).toHaveLength(5);
    expect(await bots.find(manager, {})).toHaveLength(7);
    expect((await bots.paginate(manager, { query: { page: '2' } })).items).toHaveLength(2);
    expect((await failure(bots.find(manager, { query: { limit: '100000' } }))).statusCode).toBe(400);
  });
});

describe('entity operations: hooks and transactions', () => {
  it('runs the service hooks with the caller context, and a hook that throws rolls the write back', async () => {
    const seen: string[] = [];
    service.hooks.add('bot', {
      beforeChange: (event) => {
        seen.push(`${event.operation}:${event.context.userId}`);
      },
      afterChange: async (event) => {
        // A second write inside the same transaction, then a failure: both must be undone.
        await service.create('bottracestatus', system(), { name: `after ${event.record?.name}` });
        if (event.record?.name === 'Rolled back') throw new HttpError(409, 'refused by a hook');
      },
    });
    const manager = caller(['bot:manage']);
    await bots.create(manager, { data: bot('Kept') });
    expect((await failure(bots.create(manager, { data: bot('Rolled back') }))).statusCode).toBe(409);
    expect(seen).toEqual(['create:u1', 'create:u1']);
    const names = (await bots.find(manager, {})) as Array<{ name: string }>;
    expect(names.map((b) => b.name)).toEqual(['Kept']);
    const statuses = (await service.find('bottracestatus', system(), { limit: 100, offset: 0, orderBy: null, order: 'asc', search: null, filters: [] } as never)) as Array<{ name: string }>;
    expect(statuses.map((s) => s.name)).toEqual(['after Kept']);
  });

  it('an operation without hooks writes and reads back as the service does', async () => {
    const manager = caller(['bot:manage']);
    const created = (await bots.create(manager, { data: bot('Plain') })) as { _id: string; name: string };
    expect(await bots.findByIds(manager, { ids: [created._id, 'missing'] })).toMatchObject([{ _id: created._id, name: 'Plain' }]);
    expect(await bots.findOne(manager, { query: { search: 'Plain' } })).toMatchObject({ _id: created._id });
  });
});
