import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';

/**
 * Issue 16: a NUL character (U+0000) in any string was a 500 on PostgreSQL (text and jsonb cannot
 * hold it). Every body, query string and path parameter holding one is now a 400 naming the field,
 * on both engines (run with --project api-postgres too), and nothing changes.
 */
let server: TestServer;
let visitor: Visitor;
let botId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { CHAT_RATE_START_PER_MINUTE: '1000', CHAT_RATE_MESSAGE_PER_MINUTE: '1000', CHAT_RATE_READ_PER_MINUTE: '1000' } });
  visitor = anonymous(server.baseUrl);
  botId = (await create<{ _id: string }>(server, '/api/bots', minimalBot('Nulo')))._id;
});
afterAll(async () => server?.close());

const NUL = '\u0000';

function refusedFor(response: { status: number; body: any; text: string }, ...fields: string[]) {
  expect(response.status, response.text).toBe(400);
  expect(response.body.message).toMatch(/NUL character/);
  expect(response.body.inputErrors).toEqual(fields.map((field) => ({ field, reason: 'validation.nulCharacter' })));
}

describe('entity writes', () => {
  it('create: a top-level field, a nested one, an array item and a key; nothing is created', async () => {
    const before = (await server.get('/api/contacts/find')).body.length;
    refusedFor(await server.post('/api/contacts', { name: `Ana${NUL}`, email: 'ana@example.com' }), 'name');
    refusedFor(await server.post('/api/contacts', { name: 'Ana', memory: [{ attribute: 'a', content: `x${NUL}y` }] }), 'memory.0.content');
    refusedFor(await server.post('/api/bots', minimalBot('Bot', { questions: ['ok', NUL] })), 'questions.1');
    refusedFor(await server.post('/api/contacts', { name: 'Ana', [`e${NUL}mail`]: 'x' }), 'e\\u0000mail');
    refusedFor(await server.post('/api/knowledge', minimalKnowledge('K', { texts: [{ title: 'T', content: `a${NUL}` }] })), 'texts.0.content');
    expect((await server.get('/api/contacts/find')).body.length).toBe(before);
  });

  it('update leaves the record unchanged', async () => {
    const bot = await create<{ _id: string; description: string }>(server, '/api/bots', minimalBot('Intacto', { description: 'antes' }));
    refusedFor(await server.put(`/api/bots/${bot._id}`, { description: `después${NUL}` }), 'description');
    expect((await server.get(`/api/bots/${bot._id}`)).body.description).toBe('antes');
  });

  it('query strings and path parameters', async () => {
    refusedFor(await server.get(`/api/contacts/find${qs({ search: `a${NUL}` })}`), 'search');
    refusedFor(await server.get(`/api/contacts/paginate${qs({ filters: `name;eq;${NUL}` })}`), 'filters');
    refusedFor(await server.get(`/api/contacts/${encodeURIComponent(NUL)}`), 'id');
  });
});

describe('chat, settings and identity input', () => {
  it('chat start and message; the conversation keeps no message', async () => {
    refusedFor(await visitor.post('/api/chat/start', { name: `Eva${NUL}`, email: 'eva@example.com', botId }), 'name');
    refusedFor(await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId: `${botId}${NUL}` }), 'botId');
    const started = await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId });
    expect(started.status).toBe(201);
    refusedFor(await visitor.post(`/api/chat/message/${started.body._id}`, { message: `hola${NUL}` }), 'message');
    refusedFor(await visitor.post(`/api/chat/message/${started.body._id}/stream`, { message: NUL }), 'message');
    refusedFor(await visitor.post(`/api/chat/reaction/${started.body._id}`, { chatId: NUL, reaction: 'Helpful' }), 'chatId');
    expect((await visitor.get(`/api/chat/conversation/${started.body._id}`)).body.chats).toEqual([]);
  });

  it('settings keep their value', async () => {
    const before = (await server.get('/api/settings/llm.model')).body.value;
    refusedFor(await server.patch('/api/settings/llm.model', { value: `gpt${NUL}` }), 'value');
    expect((await server.get('/api/settings/llm.model')).body.value).toEqual(before);
  });

  it('sign-in, registration, password change and recovery', async () => {
    refusedFor(await anonymous(server.baseUrl).post('/api/auth/login', { username: `admin${NUL}`, password: 'x' }), 'username');
    refusedFor(await anonymous(server.baseUrl).post('/api/users/register', { username: 'nuevo', password: `Abcdef-12${NUL}`, email: 'n@example.com' }), 'password');
    refusedFor(await anonymous(server.baseUrl).post('/api/users/password/recovery/request', { email: `a${NUL}@example.com` }), 'email');
    refusedFor(await server.post('/api/users', { username: `u${NUL}`, password: 'Abcdef-1234', name: 'U' }), 'username');
  });
});

describe('GraphQL', () => {
  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.admin.token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('a NUL in variables is refused like REST; spelled "\\u0000" in the query it reaches the resolver and is refused there', async () => {
    const variables = await graphql('mutation($d: ContactInput!) { contactCreate(data: $d) { _id } }', { d: { name: `x${NUL}` } });
    expect(variables.status).toBe(400);
    expect(variables.body.data ?? null).toBeNull();
    expect(variables.body.errors[0].extensions).toMatchObject({ status: 400, inputErrors: [{ field: 'variables.d.name', reason: 'validation.nulCharacter' }] });
    const literal = await graphql('{ contactFind(search: "a\\u0000b") { _id } }');
    expect(literal.body.data ?? null).toBeNull();
    expect(literal.body.errors[0].extensions).toMatchObject({ status: 400, inputErrors: [{ field: 'search', reason: 'validation.nulCharacter' }] });
    const mutation = await graphql('mutation { contactCreate(data: { name: "a\\u0000b" }) { _id } }');
    expect(mutation.body.errors[0].extensions).toMatchObject({ status: 400, inputErrors: [{ field: 'name', reason: 'validation.nulCharacter' }] });
  });

  it('the server still answers', async () => {
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
  });
});

describe('imports (multipart files, which the request-level check does not see)', () => {
  const csv = (lines: string[]) => lines.join('\r\n') + '\r\n';

  it('CSV: the dry run reports the row and column; the real import is a 400 naming them, nothing is written', async () => {
    const file = csv(['name;description', 'Nul import A;fine', `Nul import B;a${NUL}b`, `Nul${NUL} import C;x`]);
    const dry = await server.upload('/api/bots/import?format=CSV&dryRun=true', { name: 'bots.csv', content: file, type: 'text/csv' });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toEqual({
      dryRun: true, total: 3, valid: 1, invalid: 2, created: 0,
      errors: [
        { row: 2, field: 'description', reason: 'validation.nulCharacter' },
        { row: 3, field: 'name', reason: 'validation.nulCharacter' },
      ],
    });
    const real = await server.upload('/api/bots/import?format=CSV', { name: 'bots.csv', content: file, type: 'text/csv' });
    expect(real.status, real.text).toBe(400);
    expect(real.body.inputErrors).toEqual([
      { field: '2.description', reason: 'validation.nulCharacter' },
      { field: '3.name', reason: 'validation.nulCharacter' },
    ]);
    expect((await server.get(`/api/bots/find${qs({ search: 'Nul import' })}`)).body).toEqual([]);
  });

  it('JSON: nested values, list items, keys and ref values are reported by path; nothing is looked up or written', async () => {
    const rows = [
      { name: 'Nul json A', questions: ['ok', `q${NUL}`] },
      { name: 'Nul json B', [`desc${NUL}`]: 'x' },
      { name: 'Nul json C', knowledge: `k${NUL}` },
      { name: 'Nul json D', description: 'fine' },
    ];
    const content = JSON.stringify(rows);
    const dry = await server.upload('/api/bots/import?dryRun=true', { name: 'bots.json', content, type: 'application/json' });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ total: 4, valid: 1, invalid: 3 });
    expect(dry.body.errors).toEqual([
      { row: 1, field: 'questions.1', reason: 'validation.nulCharacter' },
      { row: 2, field: 'desc\\u0000', reason: 'validation.nulCharacter' },
      { row: 3, field: 'knowledge', reason: 'validation.nulCharacter' },
    ]);
    const real = await server.upload('/api/bots/import', { name: 'bots.json', content, type: 'application/json' });
    expect(real.status, real.text).toBe(400);
    expect((await server.get(`/api/bots/find${qs({ search: 'Nul json' })}`)).body).toEqual([]);
    // Without the bad rows the same file imports.
    const fine = await server.upload('/api/bots/import', { name: 'bots.json', content: JSON.stringify([rows[3]]), type: 'application/json' });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body).toMatchObject({ created: 1 });
  });
});
