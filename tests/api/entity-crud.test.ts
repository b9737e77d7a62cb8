import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { withOtherConnection } from './helpers/test-database.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('health', () => {
  it('answers ok once the database is ready', async () => {
    const res = await server.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('bot CRUD with its knowledge ref', () => {
  it('creates with defaults, system fields and the ref populated', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Manual'));
    expect(knowledge).toMatchObject({ name: 'Manual', maxResults: 5, scoreThreshold: 0.5, sources: [], user: { username: 'admin' } }); // owner defaults to the caller

    const res = await server.post('/api/bots', minimalBot('Helper', { knowledge: knowledge._id, questions: ['How?'] }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Helper',
      description: 'Helper description',
      knowledge: { _id: knowledge._id, name: 'Manual' },
      questions: ['How?'],
      tenant: null,
    });
    expect(res.body._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.systemPrompt).toContain('No puedo ayudarte con eso.');
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(res.body.updatedAt).toBe(res.body.createdAt);

    const fetched = await server.get(`/api/bots/${res.body._id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
  });

  it('accepts a ref as a {_id} object and a copy of a row (system and readonly fields dropped)', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Copy source'));
    const bot = await create(server, '/api/bots', minimalBot('Original', { knowledge: { _id: knowledge._id, name: 'x' } }));
    expect(bot.knowledge).toEqual({ _id: knowledge._id, name: 'Copy source' });

    // A form sends the whole row back: _id, createdAt, updatedAt, tenant and the populated ref.
    const copy = { ...bot, name: 'Renamed' };
    const res = await server.put(`/api/bots/${bot._id}`, copy);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: bot._id, name: 'Renamed', createdAt: bot.createdAt, knowledge: { _id: knowledge._id, name: 'Copy source' } });
    expect(res.body.updatedAt >= bot.updatedAt).toBe(true);
  });

  it('partial PUT keeps the other fields; clearing a ref with null or "" works', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('K2'));
    const bot = await create(server, '/api/bots', minimalBot('Partial', { knowledge: knowledge._id, questions: ['a', 'b'] }));
    const res = await server.put(`/api/bots/${bot._id}`, { description: 'new description' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Partial', description: 'new description', questions: ['a', 'b'], knowledge: { _id: knowledge._id } });
    const cleared = await server.put(`/api/bots/${bot._id}`, { knowledge: '' });
    expect(cleared.body.knowledge).toBeNull();
    const again = await server.put(`/api/bots/${bot._id}`, { knowledge: null });
    expect(again.status).toBe(200);
    expect(again.body.knowledge).toBeNull();
  });

  it('deletes, then the record is gone (404 in the error shape)', async () => {
    const bot = await create(server, '/api/bots', minimalBot('Doomed'));
    const res = await server.del(`/api/bots/${bot._id}`);
    expect(res.status).toBe(204);
    const gone = await server.get(`/api/bots/${bot._id}`);
    expect(gone.status).toBe(404);
    expectErrorShape(gone.body);
    expect((await server.del(`/api/bots/${bot._id}`)).status).toBe(404);
    expect((await server.put(`/api/bots/${bot._id}`, { name: 'x' })).status).toBe(404);
  });

  it('rejects a ref to a record that does not exist', async () => {
    const res = await server.post('/api/bots', minimalBot('Dangling', { knowledge: 'nope' }));
    expect(res.status).toBe(400);
    expect(res.body.inputErrors).toEqual([{ field: 'knowledge', reason: 'validation.refNotFound' }]);
  });

  it('populates array.ref lists in batch and keeps their order', async () => {
    const s1 = await create(server, '/api/knowledge-sources', { name: 'S1', type: 'chunk', chunks: [{ content: 'c' }] });
    const s2 = await create(server, '/api/knowledge-sources', { name: 'S2', type: 'chunk' });
    const k = await create(server, '/api/knowledge', minimalKnowledge('Multi', { sources: [s2._id, { _id: s1._id }] }));
    expect(k.sources).toEqual([{ _id: s2._id, name: 'S2' }, { _id: s1._id, name: 'S1' }]);
    const bad = await server.post('/api/knowledge', minimalKnowledge('Bad', { sources: [s1._id, 'missing'] }));
    expect(bad.status).toBe(400);
    expect(bad.body.inputErrors).toEqual([{ field: 'sources.1', reason: 'validation.refNotFound' }]);
  });
});

describe('ids, find, find-one, search', () => {
  it('GET /ids/:ids returns the records in the requested order, skipping missing ones', async () => {
    const a = await create(server, '/api/contacts', { name: 'Ana' });
    const b = await create(server, '/api/contacts', { name: 'Beto' });
    const res = await server.get(`/api/contacts/ids/${b._id},missing,${a._id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => r.name)).toEqual(['Beto', 'Ana']);
  });

  it('find defaults to 100 rows, honours limit and filters; find-one 404s on no match', async () => {
    for (let i = 0; i < 3; i++) await create(server, '/api/contacts', { name: `Finder ${i}`, email: `f${i}@example.com` });
    const all = await server.get('/api/contacts/find?search=finder&orderBy=name&order=desc');
    expect(all.body.map((r: any) => r.name)).toEqual(['Finder 2', 'Finder 1', 'Finder 0']);
    const limited = await server.get('/api/contacts/find?search=finder&orderBy=name&limit=2');
    expect(limited.body.map((r: any) => r.name)).toEqual(['Finder 0', 'Finder 1']);
    const one = await server.get('/api/contacts/find-one?search=finder&orderBy=name&order=desc');
    expect(one.status).toBe(200);
    expect(one.body.name).toBe('Finder 2');
    const none = await server.get('/api/contacts/find-one?search=nobody-matches');
    expect(none.status).toBe(404);
    expectErrorShape(none.body);
  });

  it('search matches search fields case-insensitively and treats % and _ literally', async () => {
    await create(server, '/api/contacts', { name: 'Percent 100% sure', email: 'p@example.com' });
    await create(server, '/api/contacts', { name: 'Percent 1000 sure', email: 'q@example.com' });
    await create(server, '/api/contacts', { name: 'under_score', email: 'u@example.com' });
    await create(server, '/api/contacts', { name: 'underXscore', email: 'v@example.com' });
    const pct = await server.get(`/api/contacts/search?search=${encodeURIComponent('100%')}`);
    expect(pct.body.map((r: any) => r.name)).toEqual(['Percent 100% sure']);
    const us = await server.get('/api/contacts/search?search=R_S');
    expect(us.body.map((r: any) => r.name)).toEqual(['under_score']);
    const byEmail = await server.get('/api/contacts/search?search=Q@EXAMPLE');
    expect(byEmail.body.map((r: any) => r.name)).toEqual(['Percent 1000 sure']);
  });
});

describe('secret fields', () => {
  it('never returns user passwords (create, get, list, populate)', async () => {
    const role = await create(server, '/api/roles', { name: 'Agent', permissions: ['bot:view'] });
    const user = await create(server, '/api/users', {
      name: 'Eva', username: 'eva', password: 'secret-pass-1', email: 'eva@example.com', phone: '1', role: role._id,
    });
    expect(user).not.toHaveProperty('password');
    expect(user.role).toEqual({ _id: role._id, name: 'Agent', permissions: ['bot:view'] });
    const fetched = await server.get(`/api/users/${user._id}`);
    expect(fetched.body).not.toHaveProperty('password');
    const list = await server.get('/api/users');
    expect(list.text).not.toContain('secret-pass-1');
    expect(list.text).not.toContain('"password"');
    // A partial update without the password keeps it (and still never shows it).
    const updated = await server.put(`/api/users/${user._id}`, { phone: '2' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ phone: '2', active: true });
    expect(updated.body).not.toHaveProperty('password');
  });
});

describe('body handling', () => {
  it('rejects an unknown property with 400 naming it', async () => {
    const res = await server.post('/api/bots', minimalBot('X', { colour: 'red' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: 'Validation failed',
      i18nMessage: 'error.validation',
      inputErrors: [{ field: 'colour', reason: 'validation.unknownField' }],
    });
  });

  it('malformed JSON is a 400 and a wrong content type a 415, both in the error shape', async () => {
    const before = (await server.get('/api/bots?limit=1')).body.total;
    const bad = await server.raw('/api/bots', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Malformed JSON/);
    const text = await server.raw('/api/bots', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name=x' });
    expect(text.status).toBe(415);
    expectErrorShape(text.body);
    const form = new FormData();
    form.append('name', 'x');
    const multipart = await server.raw('/api/bots', { method: 'POST', body: form });
    expect(multipart.status).toBe(415);
    const array = await server.post('/api/bots', [minimalBot('in an array')]);
    expect(array.status).toBe(400);
    expect((await server.get('/api/bots?limit=1')).body.total).toBe(before);
  });

  it('unknown routes under /api are 404 in the error shape', async () => {
    const res = await server.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expectErrorShape(res.body);
  });

  it('conversation is not creatable or editable over the generic API but is readable and deletable', async () => {
    // The path exists (GET lists them): an unsupported method there is a 405 saying what is allowed (issue 31).
    const create = await server.post('/api/conversations', {});
    expect(create.status).toBe(405);
    expect(create.headers.get('allow')).toBe('GET, HEAD');
    const list = await server.get('/api/conversations');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [], total: 0 });
  });
});

describe('list totals stay exact (they are cached until any write)', () => {
  it('follows creates, deletes and writes by another connection to the same database file', async () => {
    const total = async () => (await server.get('/api/tenants?search=Counted')).body.total;
    expect(await total()).toBe(0);
    const t = await create(server, '/api/tenants', { name: 'Counted 1' });
    expect(await total()).toBe(1);
    await create(server, '/api/tenants', { name: 'Counted 2' });
    expect(await total()).toBe(2);
    await server.del(`/api/tenants/${t._id}`);
    expect(await total()).toBe(1);
    // Real timestamps: the list's answer is checked against the OpenAPI document (date-time).
    const now = new Date().toISOString();
    await withOtherConnection(server.dataDir, (other) =>
      other.run(other.kysely.insertInto('tenants').values({ _id: 'outside', name: 'Counted outside', createdAt: now, updatedAt: now }).compile()),
    );
    // Another process's write: seen at once on SQLite (data_version), on PostgreSQL as soon as the
    // server hears the table's change notification (milliseconds).
    await expect.poll(total, { timeout: 2000, interval: 20 }).toBe(2);
  });

  it('counts once for many identical lists asked at the same time', async () => {
    await create(server, '/api/tenants', { name: 'Single flight' });
    const { database } = server.forja;
    const first = database.first.bind(database);
    let counts = 0;
    database.first = async (query) => {
      if (/count\(\*\)/i.test(query.sql) && query.sql.includes('tenants')) counts++;
      return first(query);
    };
    try {
      const pages = await Promise.all(Array.from({ length: 8 }, () => server.get('/api/tenants?search=Single%20flight')));
      expect(pages.map((p) => p.body.total)).toEqual(Array(8).fill(1));
      expect(counts).toBe(1);
    } finally {
      database.first = first;
    }
  });
});

describe('password fields are stored hashed', () => {
  it('stores an argon2id hash, never the password sent', async () => {
    const role = await create(server, '/api/roles', { name: 'Hash role' });
    const user = await create(server, '/api/users', {
      name: 'Hash', username: 'hash-user', password: 'plain-password-9', email: 'h@example.com', phone: '1', role: role._id,
    });
    const stored = await withOtherConnection(server.dataDir, async (db) =>
      String((await db.first(db.kysely.selectFrom('users').select('password').where('_id', '=', user._id).compile()))?.password),
    );
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(stored).not.toContain('plain-password-9');
  });
});
