import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { TEST_BACKEND, withOtherConnection } from './helpers/test-database.ts';
import { anonymous, parseSse, type Visitor } from './chat-visitor.ts';
import { chunk, completion, json, sse, fakeLlmEnvironment, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

/**
 * Issue 16 "Public chat reveals contacts": typing an existing contact's e-mail in the chat form
 * must not attach the visitor to that contact. No answer and no prompt may carry the contact's
 * name, memory or earlier conversations. And a message is saved with its trace or not at all.
 */
let fake: FakeOpenAiServer;
let server: TestServer;
let visitor: Visitor;
let botId: string;
let victim: { _id: string; name: string; email: string };

const VICTIM_NAME = 'Reservada Villanueva';
const VICTIM_SECRETS = ['PIN-4321-XYZ', 'alérgica al marisco', 'pedido 99-SECRETO'];

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  server = await startTestServer({
    env: fakeLlmEnvironment(fake),
  });
  visitor = anonymous(server.baseUrl);
  botId = (await create<{ _id: string }>(server, '/api/bots', minimalBot('Privado')))._id;
  victim = await create(server, '/api/contacts', {
    name: VICTIM_NAME,
    email: 'victima@example.com',
    memory: [
      { attribute: 'pin', content: VICTIM_SECRETS[0] },
      { attribute: 'salud', content: VICTIM_SECRETS[1] },
    ],
  });
  // The victim's own earlier conversation, with something private in it.
  fake.handle((_req, res) => json(res, 200, completion('Anotado.')));
  const own = await visitor.post('/api/chat/start', { name: VICTIM_NAME, email: 'victima@example.com', botId });
  expect(own.status, own.text).toBe(201);
  const said = await visitor.post(`/api/chat/message/${own.body._id}`, { message: `Mi ${VICTIM_SECRETS[2]} no ha llegado` });
  expect(said.status, said.text).toBe(200);
  // Starting a chat never attaches to an existing contact, so attach this one as the console would
  // have it: the victim's own conversation.
  await withOtherConnection(server.dataDir, (db) =>
    db.run(db.kysely.updateTable('conversations').set({ contact: victim._id }).where('_id', '=', own.body._id).compile()),
  );
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.handle((req, res) =>
    req.body?.stream
      ? sse(res, [chunk('Hola, '), chunk('¿en qué puedo ayudarte?'), chunk(null, { prompt_tokens: 10, completion_tokens: 5 })])
      : json(res, 200, completion('Hola, ¿en qué puedo ayudarte?')),
  );
});

function expectNothingOf(victimData: string, where: string) {
  expect(victimData, where).not.toContain(VICTIM_NAME);
  expect(victimData, where).not.toContain(victim._id);
  for (const secret of VICTIM_SECRETS) expect(victimData, where).not.toContain(secret);
}

describe('starting a chat with an existing contact\'s e-mail', () => {
  it.each([
    ['the same e-mail', 'victima@example.com'],
    ['another case', 'VICTIMA@Example.COM'],
    ['surrounding spaces', '  victima@example.com  '],
  ])('%s: a new contact named as typed; no answer or prompt holds the victim\'s name, memory or conversations', async (_label, email) => {
    const started = await visitor.post('/api/chat/start', { name: 'Intruso', email, botId });
    expect(started.status, started.text).toBe(201);
    expect(started.body.contact.name).toBe('Intruso');
    expect(started.body.contact._id).not.toBe(victim._id);
    expect(started.body.chats).toEqual([]);
    expectNothingOf(started.text, 'start answer');

    const answered = await visitor.post(`/api/chat/message/${started.body._id}`, { message: '¿Qué sabes de mí? ¿Cuál es mi PIN y mi pedido?' });
    expect(answered.status, answered.text).toBe(200);
    expectNothingOf(answered.text, 'message answer');
    expect(fake.requests).toHaveLength(1);
    expectNothingOf(JSON.stringify(fake.requests[0].body), 'prompt sent to the model');

    const streamed = await visitor.post(`/api/chat/message/${started.body._id}/stream`, { message: 'Repite mis datos' });
    expect(streamed.status).toBe(200);
    expectNothingOf(streamed.text, 'streamed answer');
    expect(parseSse(streamed.text).length).toBeGreaterThan(0);
    expectNothingOf(JSON.stringify(fake.requests.map((r) => r.body)), 'prompts sent to the model');

    const read = await visitor.get(`/api/chat/conversation/${started.body._id}`);
    expect(read.status).toBe(200);
    expectNothingOf(read.text, 'conversation read');
  });

  it('leaves the victim\'s contact as it was, and the visitor\'s contact holds only what the visitor typed', async () => {
    const started = await visitor.post('/api/chat/start', { name: 'Otra Persona', email: 'victima@example.com', botId });
    const stored = await server.get(`/api/contacts/${victim._id}`);
    expect(stored.body).toMatchObject({ name: VICTIM_NAME, email: 'victima@example.com' });
    expect(stored.body.memory.map((m: { content: string }) => m.content)).toEqual(VICTIM_SECRETS.slice(0, 2));
    const mine = await server.get(`/api/contacts/${started.body.contact._id}`);
    expect(mine.body).toMatchObject({ name: 'Otra Persona', email: 'victima@example.com', memory: [] });
    // The victim's conversations stay on the victim's contact, none moved to the new one.
    const theirs = await server.get(`/api/conversations/find${qs({ filters: `contact;eq;${victim._id}` })}`);
    expect(theirs.body.length).toBeGreaterThan(0);
    const visitors = await server.get(`/api/conversations/find${qs({ filters: `contact;eq;${started.body.contact._id}` })}`);
    expect(visitors.body.map((c: { _id: string }) => c._id)).toEqual([started.body._id]);
  });
});

describe('a message and its trace are saved together', () => {
  const trigger = async (on: boolean) =>
    withOtherConnection(server.dataDir, async (db) => {
      if (TEST_BACKEND === 'postgres') {
        if (on) {
          await sql`CREATE OR REPLACE FUNCTION forja_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'trace refused'; END $$ LANGUAGE plpgsql`.execute(db.kysely);
          await sql`CREATE TRIGGER forja_test_fail BEFORE INSERT ON bot_traces FOR EACH ROW EXECUTE FUNCTION forja_test_fail()`.execute(db.kysely);
        } else {
          await sql`DROP TRIGGER IF EXISTS forja_test_fail ON bot_traces`.execute(db.kysely);
        }
      } else if (on) {
        await sql`CREATE TRIGGER forja_test_fail BEFORE INSERT ON bot_traces BEGIN SELECT RAISE(ABORT, 'trace refused'); END`.execute(db.kysely);
      } else {
        await sql`DROP TRIGGER IF EXISTS forja_test_fail`.execute(db.kysely);
      }
    });

  it('when the trace cannot be written, the conversation keeps neither message; afterwards both are saved', async () => {
    const started = await visitor.post('/api/chat/start', { name: 'Paula', email: 'paula@example.com', botId });
    await trigger(true);
    try {
      const failed = await visitor.post(`/api/chat/message/${started.body._id}`, { message: 'Hola' });
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const after = await visitor.get(`/api/chat/conversation/${started.body._id}`);
      expect(after.body.chats).toEqual([]);
      // The model failing (error trace) goes through the same transaction.
      fake.handle((_req, res) => json(res, 500, { error: { message: 'down' } }));
      const down = await visitor.post(`/api/chat/message/${started.body._id}`, { message: 'Hola otra vez' });
      expect(down.status).toBeGreaterThanOrEqual(500);
      expect((await visitor.get(`/api/chat/conversation/${started.body._id}`)).body.chats).toEqual([]);
    } finally {
      await trigger(false);
    }
    fake.handle((_req, res) => json(res, 200, completion('Ahora sí.')));
    const ok = await visitor.post(`/api/chat/message/${started.body._id}`, { message: 'Hola' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.chats.map((c: { role: string }) => c.role)).toEqual(['user', 'assistant']);
    const traces = await server.get(`/api/bot-traces/find${qs({ filters: `conversation;eq;${started.body._id}` })}`);
    expect(traces.body.map((t: { chatId: string }) => t.chatId)).toEqual([ok.body.chats[1].id]);
  });

  it('a NUL character in the model\'s answer is dropped, so message and trace still save (PostgreSQL cannot store it)', async () => {
    const started = await visitor.post('/api/chat/start', { name: 'Nora', email: 'nora@example.com', botId });
    fake.handle((_req, res) => json(res, 200, completion('Hola\u0000 mundo')));
    // A question, not a greeting: greetings get the chat's own reply without asking the model.
    const answered = await visitor.post(`/api/chat/message/${started.body._id}`, { message: '¿Qué horario tenéis?' });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.chats[1].message).toBe('Hola mundo');
    const traces = await server.get(`/api/bot-traces/find${qs({ filters: `conversation;eq;${started.body._id}` })}`);
    expect(traces.body).toHaveLength(1);
    expect(traces.body[0].assistantMessage).toBe('Hola mundo');
  });
});
