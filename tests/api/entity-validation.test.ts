import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, traceFixtures } from './helpers/fixtures.ts';

let server: TestServer;
let fx: Awaited<ReturnType<typeof traceFixtures>>;
beforeAll(async () => {
  server = await startTestServer();
  fx = await traceFixtures(server);
});
afterAll(async () => server.close());

async function expectInputErrors(method: 'post' | 'put', path: string, body: unknown, inputErrors: unknown[], status = 400) {
  const res = await server[method](path, body);
  expect(res.status, res.text).toBe(status);
  expect(res.body.inputErrors).toEqual(inputErrors);
  expect(res.body.i18nMessage).toBe('error.validation');
  expect(typeof res.body.message).toBe('string');
  return res;
}

describe('create validation', () => {
  it('bot: missing, blank and whitespace-only required fields are "required"; maxItems and item types', async () => {
    await expectInputErrors('post', '/api/bots', {}, [
      { field: 'name', reason: 'validation.required' },
      { field: 'description', reason: 'validation.required' },
    ]);
    await expectInputErrors('post', '/api/bots', { name: '   ', description: null, systemPrompt: '' }, [
      { field: 'name', reason: 'validation.required' },
      { field: 'description', reason: 'validation.required' },
      { field: 'systemPrompt', reason: 'validation.required' },
    ]);
    await expectInputErrors('post', '/api/bots', minimalBot('Q', { questions: Array.from({ length: 21 }, (_, i) => `q${i}`) }), [
      { field: 'questions', reason: 'validation.maxItems' },
    ]);
    await expectInputErrors('post', '/api/bots', minimalBot('Q', { questions: ['ok', 3], name: 'x'.repeat(121) }), [
      { field: 'name', reason: 'validation.maxLength' },
      { field: 'questions.1', reason: 'validation.invalidValue' },
    ]);
  });

  it('bottrace: required refs, integers, minimum, enum', async () => {
    await expectInputErrors('post', '/api/bot-traces', { status: '', tokens: 1.5, latency: -1, reaction: 'Meh', inputTokens: 'many' }, [
      { field: 'status', reason: 'validation.required' },
      { field: 'bot', reason: 'validation.required' },
      { field: 'reaction', reason: 'validation.invalidValue' },
      { field: 'inputTokens', reason: 'validation.integer' },
      { field: 'tokens', reason: 'validation.integer' },
      { field: 'latency', reason: 'validation.min' },
    ]);
  });

  it('knowledgesource: nested chunk errors use parent.index.field, conditional requirements follow the type', async () => {
    await expectInputErrors('post', '/api/knowledge-sources', {
      name: 'Chunks', type: 'chunk', chunks: [{ content: 'fine' }, { content: '  ' }, { category: 'x' }, { content: 'ok', tags: ['a', 2], extra: 1 }],
    }, [
      { field: 'chunks.1.content', reason: 'validation.required' },
      { field: 'chunks.2.content', reason: 'validation.required' },
      { field: 'chunks.3.extra', reason: 'validation.unknownField' },
      { field: 'chunks.3.tags.1', reason: 'validation.invalidValue' },
    ]);
    // type=file needs file, sourceText and text; type=link needs link (a URI).
    await expectInputErrors('post', '/api/knowledge-sources', { name: 'F', type: 'file' }, [
      { field: 'file', reason: 'validation.required' },
      { field: 'sourceText', reason: 'validation.required' },
      { field: 'text', reason: 'validation.required' },
    ]);
    await expectInputErrors('post', '/api/knowledge-sources', { name: 'L', type: 'link', link: 'not a url', sourceText: 's', text: 't' }, [
      { field: 'link', reason: 'validation.invalidUri' },
    ]);
    // An unknown type is reported; as it is "not chunk", the texts are required too.
    await expectInputErrors('post', '/api/knowledge-sources', { name: 'T', type: 'video' }, [
      { field: 'sourceText', reason: 'validation.required' },
      { field: 'text', reason: 'validation.required' },
      { field: 'type', reason: 'validation.invalidValue' },
    ]);
  });

  it('userApiKey: list item formats report the item index with the list message', async () => {
    await expectInputErrors('post', '/api/user-api-keys', { name: 'key', ipv4: ['10.0.0.1', '999.1.1.1', 'abc'], ipv6: ['::1', 'zz::'] }, [
      { field: 'ipv4.1', reason: 'validation.invalidIpv4' },
      { field: 'ipv4.2', reason: 'validation.invalidIpv4' },
      { field: 'ipv6.1', reason: 'validation.invalidIpv6' },
    ]);
    const ok = await create(server, '/api/user-api-keys', { name: 'key', ipv4: ['10.0.0.1'], ipv6: ['::1'], secret: 'client-sent' });
    expect(ok).toMatchObject({ name: 'key', ipv4: ['10.0.0.1'], ipv6: ['::1'], user: { username: 'admin' }, createdBy: { username: 'admin' } });
    expect(ok.secret).toMatch(/^fk_/); // shown once, at creation (identity-api-keys.test.ts)
  });

  it('user: email format and password length', async () => {
    const role = await create(server, '/api/roles', { name: 'R' });
    await expectInputErrors('post', '/api/users', { name: 'U', username: 'u1', password: 'short', email: 'nope', phone: '1', role: role._id }, [
      { field: 'password', reason: 'validation.minLength' },
      { field: 'email', reason: 'validation.invalidEmail' },
    ]);
  });

  it('invalid input never writes anything', async () => {
    const before = (await server.get('/api/bot-traces')).body.total;
    await server.post('/api/bot-traces', { status: fx.ok._id });
    await server.post('/api/bot-traces', { status: fx.ok._id, bot: fx.bot._id, tokens: -5 });
    expect((await server.get('/api/bot-traces')).body.total).toBe(before);
  });
});

describe('update validation (merge of stored record and body)', () => {
  it('a partial PUT validates the merge: required fields cannot be blanked, others stay', async () => {
    const trace = await create(server, '/api/bot-traces', { status: fx.ok._id, bot: fx.bot._id, tokens: 3 });
    const res = await server.put(`/api/bot-traces/${trace._id}`, { tokens: 4 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokens: 4, status: { _id: fx.ok._id, name: 'ok' }, bot: { _id: fx.bot._id } });
    await expectInputErrors('put', `/api/bot-traces/${trace._id}`, { status: null, bot: '' }, [
      { field: 'status', reason: 'validation.required' },
      { field: 'bot', reason: 'validation.required' },
    ]);
    await expectInputErrors('put', `/api/bot-traces/${trace._id}`, { tokens: -1, unknown: true }, [
      { field: 'unknown', reason: 'validation.unknownField' },
      { field: 'tokens', reason: 'validation.min' },
    ]);
    // Nothing of the rejected updates was stored.
    expect((await server.get(`/api/bot-traces/${trace._id}`)).body).toMatchObject({ tokens: 4, status: { _id: fx.ok._id } });
  });

  it('nested list errors on update too', async () => {
    const source = await create(server, '/api/knowledge-sources', { name: 'S', type: 'chunk', chunks: [{ content: 'a' }] });
    await expectInputErrors('put', `/api/knowledge-sources/${source._id}`, { chunks: [{ content: 'a' }, { content: '' }] }, [
      { field: 'chunks.1.content', reason: 'validation.required' },
    ]);
    const ok = await server.put(`/api/knowledge-sources/${source._id}`, { chunks: [{ content: 'a' }, { content: 'b', tags: ['t'] }] });
    expect(ok.status).toBe(200);
    expect(ok.body.chunks).toEqual([{ content: 'a' }, { content: 'b', tags: ['t'] }]);
  });
});

describe('uniqueness (409 with validation.unique)', () => {
  it('bottracestatus name is unique on create and update', async () => {
    await create(server, '/api/bot-trace-statuses', { name: 'unique-me' });
    const dup = await expectInputErrors('post', '/api/bot-trace-statuses', { name: 'unique-me' }, [
      { field: 'name', reason: 'validation.unique' },
    ], 409);
    expect(dup.body.message).toMatch(/already exists/);
    const other = await create(server, '/api/bot-trace-statuses', { name: 'other' });
    await expectInputErrors('put', `/api/bot-trace-statuses/${other._id}`, { name: 'unique-me' }, [
      { field: 'name', reason: 'validation.unique' },
    ], 409);
    // Saving a record with its own unchanged value is not a conflict.
    const same = await server.put(`/api/bot-trace-statuses/${other._id}`, { name: 'other', description: 'd' });
    expect(same.status).toBe(200);
  });

  it('usernames are unique across tenants (uniqueGlobal)', async () => {
    const role = await create(server, '/api/roles', { name: 'R2' });
    const t1 = await create(server, '/api/tenants', { name: 'T1' });
    const t2 = await create(server, '/api/tenants', { name: 'T2' });
    const base = { name: 'N', password: 'password-1', email: 'n@example.com', phone: '1', role: role._id };
    await create(server, '/api/users', { ...base, username: 'same', tenant: t1._id });
    await expectInputErrors('post', '/api/users', { ...base, username: 'same', tenant: t2._id }, [
      { field: 'username', reason: 'validation.unique' },
    ], 409);
  });
});
