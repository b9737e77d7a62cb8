// Issue 27 item 4: bulk delete (POST <basePath>/bulk-delete). Each record is deleted as a single
// delete would be (scope, platform-only writes, hooks, in-use check), a refused record does not stop
// the others, every record gets an outcome naming it, and the request is bounded. The test
// client validates every answer against the OpenAPI document. Runs on SQLite (api) and
// PostgreSQL (api-postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BULK_DELETE } from '../../contract/endpoints/bulk-delete.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalBot, minimalKnowledge, userWith } from './helpers/fixtures.ts';

let server: TestServer;
let tenantA: any;
let tenantB: any;
beforeAll(async () => {
  server = await startTestServer();
  tenantA = await create(server, '/api/tenants', { name: 'Bulk A' });
  tenantB = await create(server, '/api/tenants', { name: 'Bulk B' });
});
afterAll(async () => server?.close());

const exists = async (base: string, id: string) => (await server.get(`${base}/${id}`)).status === 200;

describe('bulk delete by ids', () => {
  it('deletes the free records and names each refused one with its reason (409 in use, 404 unknown)', async () => {
    const free = [await create(server, '/api/knowledge', minimalKnowledge('Free 1')), await create(server, '/api/knowledge', minimalKnowledge('Free 2')), await create(server, '/api/knowledge', minimalKnowledge('Free 3'))];
    const used = await create(server, '/api/knowledge', minimalKnowledge('Used by a bot'));
    await create(server, '/api/bots', minimalBot('Holds it', { knowledge: used._id }));
    const ids = [free[0]._id, used._id, 'no-such-id', free[1]._id, free[2]._id];
    const res = await server.post('/api/knowledge/bulk-delete', { ids });
    expect(res.status, res.text).toBe(200);
    expect(res.body.deleted).toBe(3);
    expect(res.body.failed).toBe(2);
    expect(res.body.results.map((r: any) => r.id)).toEqual(ids);
    const byId = new Map(res.body.results.map((r: any) => [r.id, r]));
    expect(byId.get(used._id)).toMatchObject({ label: 'Used by a bot', deleted: false, error: { status: 409, i18nMessage: 'error.recordInUse', i18nParams: { count: 1 } } });
    expect(byId.get('no-such-id')).toMatchObject({ label: 'no-such-id', deleted: false, error: { status: 404 } });
    for (const record of free) expect(byId.get(record._id)).toEqual({ id: record._id, label: record.name, deleted: true });
    for (const record of free) expect(await exists('/api/knowledge', record._id)).toBe(false);
    expect(await exists('/api/knowledge', used._id)).toBe(true);
  });

  it('a repeated id is deleted once and reported once', async () => {
    const one = await create(server, '/api/bots', minimalBot('Twice'));
    const res = await server.post('/api/bots/bulk-delete', { ids: [one._id, one._id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ deleted: 1, failed: 0, results: [{ id: one._id, label: 'Twice', deleted: true }] });
  });

  it('refuses rows out of the caller\'s reach per row: another tenant\'s record (404), a shared record for a tenant user (403)', async () => {
    const userA = await userWith(server, ['contact:create', 'contact:delete', 'contact:view', 'bottracestatus:delete', 'bottracestatus:view'], { tenant: tenantA._id });
    const userB = await userWith(server, ['contact:create', 'contact:view'], { tenant: tenantB._id });
    const mine = (await userA.client.post('/api/contacts', { name: 'Tenant A contact', email: 'a@example.com' })).body;
    const theirs = (await userB.client.post('/api/contacts', { name: 'Tenant B contact', email: 'b@example.com' })).body;
    expect([mine.tenant?._id ?? mine.tenant, theirs.tenant?._id ?? theirs.tenant]).toEqual([tenantA._id, tenantB._id]);
    const res = await userA.client.post('/api/contacts/bulk-delete', { ids: [theirs._id, mine._id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toEqual([
      // The other tenant's record is not named by its label: the caller cannot read it.
      { id: theirs._id, label: theirs._id, deleted: false, error: expect.objectContaining({ status: 404 }) },
      { id: mine._id, label: 'Tenant A contact', deleted: true },
    ]);
    expect(await exists('/api/contacts', theirs._id)).toBe(true);

    const status = await create(server, '/api/bot-trace-statuses', { name: 'bulk shared status' });
    const shared = await userA.client.post('/api/bot-trace-statuses/bulk-delete', { ids: [status._id] });
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.results[0]).toMatchObject({ id: status._id, label: 'bulk shared status', deleted: false, error: { status: 403, i18nMessage: 'error.platformOnly' } });
    expect(await exists('/api/bot-trace-statuses', status._id)).toBe(true);
  });

  it('runs identity\'s rules per row: the read-only seeded Admin role and a role in use stay, a free role goes', async () => {
    const roles = (await server.get('/api/roles?limit=100')).body.items as any[];
    const admin = roles.find((role) => role.readonly);
    expect(admin).toBeTruthy();
    const inUse = await userWith(server, ['bot:view']);
    const free = await create(server, '/api/roles', { name: 'Free role for bulk', permissions: ['bot:view'], childRoles: [] });
    const res = await server.post('/api/roles/bulk-delete', { ids: [admin._id, inUse.role._id, free._id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.deleted).toBe(1);
    const [adminResult, inUseResult, freeResult] = res.body.results;
    expect(adminResult.deleted).toBe(false);
    expect([403, 409]).toContain(adminResult.error.status);
    expect(inUseResult).toMatchObject({ deleted: false, error: { status: 409 } });
    expect(freeResult).toMatchObject({ id: free._id, deleted: true });
    expect(await exists('/api/roles', admin._id)).toBe(true);
    expect(await exists('/api/roles', inUse.role._id)).toBe(true);
  });

  it('needs the delete permission on the entity (403 before anything is deleted)', async () => {
    const kept = await create(server, '/api/bots', minimalBot('Not yours to delete'));
    for (const permissions of [['bot:view'], ['bot:view', 'bot:update'], ['knowledge:delete']]) {
      const { client } = await userWith(server, permissions);
      const res = await client.post('/api/bots/bulk-delete', { ids: [kept._id] });
      expect(res.status, permissions.join(',')).toBe(403);
      expectErrorShape(res.body);
    }
    expect((await server.as(null).post('/api/bots/bulk-delete', { ids: [kept._id] })).status).toBe(401);
    expect(await exists('/api/bots', kept._id)).toBe(true);
  });
});

describe('bulk delete of every record matching a query', () => {
  it('deletes what the filter and search match, nothing else', async () => {
    const prefix = `match-${Date.now()}`;
    const hit = [await create(server, '/api/bots', minimalBot(`${prefix} one`)), await create(server, '/api/bots', minimalBot(`${prefix} two`))];
    const miss = await create(server, '/api/bots', minimalBot(`other-${prefix}`));
    const res = await server.post('/api/bots/bulk-delete', { matching: { filters: `name;like;${prefix} `, expected: 2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.deleted).toBe(2);
    expect(res.body.results.map((r: any) => r.label).sort()).toEqual(hit.map((bot) => bot.name).sort());
    expect(await exists('/api/bots', miss._id)).toBe(true);

    const searched = await create(server, '/api/bots', minimalBot(`${prefix}-searched`));
    const bySearch = await server.post('/api/bots/bulk-delete', { matching: { search: `${prefix}-searched`, expected: 1 } });
    expect(bySearch.body).toMatchObject({ deleted: 1, failed: 0, results: [{ id: searched._id }] });
    // The list changed since the user confirmed: nothing is deleted.
    const other = await create(server, '/api/bots', minimalBot(`${prefix}-changed one`));
    await create(server, '/api/bots', minimalBot(`${prefix}-changed two`));
    const changed = await server.post('/api/bots/bulk-delete', { matching: { search: `${prefix}-changed`, expected: 1 } });
    expect(changed.status, changed.text).toBe(409);
    expect(changed.body).toMatchObject({ i18nMessage: 'error.bulkChanged', i18nParams: { count: 2, expected: 1 } });
    expect(changed.body.message).toMatch(/now matches 2 records, not the 1 confirmed; nothing was deleted/);
    expect(await exists('/api/bots', other._id)).toBe(true);
    // Matching nothing is an empty report, not an error.
    const none = await server.post('/api/bots/bulk-delete', { matching: { search: `${prefix}-nothing`, expected: 0 } });
    expect(none.body).toEqual({ deleted: 0, failed: 0, results: [] });
  });

  it(`refuses more than ${MAX_BULK_DELETE} matching records with 413 and deletes none`, async () => {
    const name = `bulk-limit-${Date.now()}`;
    const rows = Array.from({ length: MAX_BULK_DELETE + 1 }, (_, index) => ({ name: `${name}-${index}` }));
    const imported = await server.upload('/api/bot-trace-statuses/import?format=JSON', { name: 'statuses.json', content: JSON.stringify(rows), type: 'application/json' });
    expect(imported.status, imported.text).toBe(200);
    const res = await server.post('/api/bot-trace-statuses/bulk-delete', { matching: { search: `${name}-`, expected: MAX_BULK_DELETE + 1 } });
    expect(res.status, res.text).toBe(413);
    expect(res.body).toMatchObject({ i18nMessage: 'error.bulkTooMany', i18nParams: { count: MAX_BULK_DELETE + 1, max: MAX_BULK_DELETE } });
    expect(res.body.message).toMatch(/matches 1001 records; a bulk delete takes at most 1000/);
    const left = await server.get(`/api/bot-trace-statuses?limit=1&search=${encodeURIComponent(`${name}-`)}`);
    expect(left.body.total).toBe(MAX_BULK_DELETE + 1);
  });
});

describe('bad bodies are refused with a message naming what is wrong, nothing deleted', () => {
  it.each([
    ['no body member', {}, /exactly one of "ids"/],
    ['both ids and matching', { ids: ['x'], matching: { expected: 1 } }, /exactly one of "ids"/],
    ['an unknown member', { ids: ['x'], all: true }, /Unknown member "all"/],
    ['ids not a list', { ids: 'x' }, /"ids" must be a list/],
    ['empty ids', { ids: [] }, /"ids" is empty/],
    ['a blank id', { ids: ['ok', ' '] }, /ids\[1\] must be a non-empty record id/],
    ['a number as id', { ids: [42] }, /ids\[0\] must be/],
    ['matching not an object', { matching: 'all' }, /"matching" must be an object/],
    ['an unknown matching member', { matching: { where: 'x' } }, /Unknown member "matching.where"/],
    ['a filter on an unknown field', { matching: { filters: 'secret;eq;x', expected: 1 } }, /Unknown filter field "secret"/],
    ['a malformed filter', { matching: { filters: 'name', expected: 1 } }, /Malformed filter/],
    ['a search not a string', { matching: { search: 5, expected: 1 } }, /"matching.search" must be a string/],
    ['matching without the confirmed count', { matching: {} }, /"matching.expected" must be the number/],
    ['a confirmed count that is not a count', { matching: { expected: -1 } }, /"matching.expected" must be/],
    ['a confirmed count as text', { matching: { expected: '3' } }, /"matching.expected" must be/],
  ])('%s', async (_name, body, message) => {
    const kept = await create(server, '/api/bots', minimalBot(`kept ${Math.random()}`));
    const res = await server.post('/api/bots/bulk-delete', body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await exists('/api/bots', kept._id)).toBe(true);
  });

  it(`refuses more than ${MAX_BULK_DELETE} ids with 413 and deletes none`, async () => {
    const kept = await create(server, '/api/bots', minimalBot('kept over the limit'));
    const ids = [kept._id, ...Array.from({ length: MAX_BULK_DELETE }, (_, index) => `missing-${index}`)];
    const res = await server.post('/api/bots/bulk-delete', { ids });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ i18nMessage: 'error.bulkTooMany', i18nParams: { count: MAX_BULK_DELETE + 1 } });
    expect(await exists('/api/bots', kept._id)).toBe(true);
  });

  it('refuses a body that is not JSON (415) and an entity that is not deletable (no route)', async () => {
    const res = await server.upload('/api/bots/bulk-delete', { name: 'ids.txt', content: 'x' });
    expect(res.status).toBe(415);
    const settings = await server.post('/api/settings/bulk-delete', { ids: ['x'] });
    expect([404, 405]).toContain(settings.status);
  });
});
