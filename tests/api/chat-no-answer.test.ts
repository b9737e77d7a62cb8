import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { anonymous, parseSse, type Visitor } from './chat-visitor.ts';
import { completion, json, fakeLlmEnvironment, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

/**
 * Unanswered questions (issue 20 item 7): nothing above the knowledge base's threshold, or the
 * model saying it has no information, gives the bot's fallback message and a no_answer trace.
 */
let fake: FakeOpenAiServer;
let server: TestServer;
let visitor: Visitor;
let knowledgeId: string;

const FALLBACK = 'No encuentro esa respuesta. Escríbenos a soporte@example.com y te atenderá una persona.';

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  server = await startTestServer({
    env: fakeLlmEnvironment(fake),
  });
  visitor = anonymous(server.baseUrl);
  const knowledge = await create(
    server,
    '/api/knowledge',
    minimalKnowledge('Envíos', { texts: [{ title: 'Envíos', content: 'Los pedidos se envían en un plazo de 48 horas laborables.' }], scoreThreshold: 0.2 }),
  );
  expect((await server.get(`/api/rag/train/${knowledge._id}`)).status).toBe(200);
  knowledgeId = knowledge._id;
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

async function start(botId: string): Promise<string> {
  const res = await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId });
  expect(res.status, res.text).toBe(201);
  return res.body._id;
}

async function traceOf(chatId: string): Promise<any> {
  const res = await server.get(`/api/bot-traces/find${qs({ filters: `chatId;eq;${chatId}` })}`);
  expect(res.body).toHaveLength(1);
  return res.body[0];
}

describe('no_answer', () => {
  it('is a seeded trace status', async () => {
    const res = await server.get('/api/bot-trace-statuses/find?search=no_answer');
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((s: any) => s.name)).toContain('no_answer');
  });

  it('answers with the bot fallback, without asking the model, when nothing passes the threshold', async () => {
    const bot = await create(server, '/api/bots', minimalBot('Con respaldo', { knowledge: knowledgeId, fallbackMessage: FALLBACK }));
    const id = await start(bot._id);
    const res = await visitor.post(`/api/chat/message/${id}`, { message: '¿Quién ganó el mundial de fútbol de 1986?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.chats[1].message).toBe(FALLBACK);
    expect(fake.requests).toHaveLength(0);
    const trace = await traceOf(res.body.chats[1].id);
    expect(trace).toMatchObject({ status: { name: 'no_answer' }, assistantMessage: FALLBACK, knowledgeBase: [], tokens: 0 });
  });

  it('streams the fallback as the answer too', async () => {
    const bot = await create(server, '/api/bots', minimalBot('Con respaldo stream', { knowledge: knowledgeId, fallbackMessage: FALLBACK }));
    const id = await start(bot._id);
    const res = await fetch(`${server.baseUrl}/api/chat/message/${id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '¿Quién ganó el mundial de fútbol de 1986?' }),
    });
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual(['delta', 'done']);
    expect(events[0].data.text).toBe(FALLBACK);
    expect(events[1].data.conversation.chats[1].message).toBe(FALLBACK);
  });

  it('replaces the model saying it has no information with the fallback, traced no_answer with the model usage', async () => {
    fake.handle((_req, res) => json(res, 200, completion('Lo siento, no tengo información para responder a eso.', { prompt_tokens: 200, completion_tokens: 12 })));
    const bot = await create(server, '/api/bots', minimalBot('Modelo sin datos', { knowledge: knowledgeId, fallbackMessage: FALLBACK }));
    const id = await start(bot._id);
    const res = await visitor.post(`/api/chat/message/${id}`, { message: '¿Cuánto tarda el envío a Canarias en un pedido urgente?' });
    expect(res.status, res.text).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(res.body.chats[1].message).toBe(FALLBACK);
    const trace = await traceOf(res.body.chats[1].id);
    expect(trace).toMatchObject({ status: { name: 'no_answer' }, provider: 'openai-compatible', tokens: 212 });
  });

  it('keeps a real answer that happens to mention missing information as ok', async () => {
    const answer = 'Los pedidos se envían en 48 horas laborables; no tengo información para responder a eso sobre Canarias, pero el plazo general aplica a toda la península.';
    fake.handle((_req, res) => json(res, 200, completion(answer, { prompt_tokens: 200, completion_tokens: 30 })));
    const bot = await create(server, '/api/bots', minimalBot('Modelo con datos', { knowledge: knowledgeId }));
    const id = await start(bot._id);
    const res = await visitor.post(`/api/chat/message/${id}`, { message: '¿Cuánto tarda el envío de un pedido?' });
    expect(res.body.chats[1].message).toBe(answer);
    expect((await traceOf(res.body.chats[1].id)).status.name).toBe('ok');
  });

  it('uses the default no-information answer when the bot has no fallback message', async () => {
    const bot = await create(server, '/api/bots', minimalBot('Sin respaldo', { knowledge: knowledgeId }));
    const id = await start(bot._id);
    const res = await visitor.post(`/api/chat/message/${id}`, { message: '¿Quién ganó el mundial de fútbol de 1986?' });
    expect(res.body.chats[1].message).toBe('No tengo información para responder a eso.');
    expect((await traceOf(res.body.chats[1].id)).status.name).toBe('no_answer');
  });

  it('refuses a fallback message over 1000 characters', async () => {
    const res = await server.post('/api/bots', minimalBot('Largo', { fallbackMessage: 'x'.repeat(1001) }));
    expect(res.status).toBe(400);
    expect(res.body.inputErrors).toEqual([expect.objectContaining({ field: 'fallbackMessage' })]);
  });
});
