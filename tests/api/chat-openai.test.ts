import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { anonymous, parseSse, type Visitor } from './chat-visitor.ts';
import { chunk, completion, json, sse, fakeLlmEnvironment, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

/** The chat against an OpenAI-compatible server (a local fake): requests, streaming, failures. */
let fake: FakeOpenAiServer;
let server: TestServer;
let visitor: Visitor;
let botId: string;

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
  botId = (await create(server, '/api/bots', minimalBot('Remoto', { knowledge: knowledge._id })))._id;
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

async function start(): Promise<string> {
  const res = await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId });
  expect(res.status).toBe(201);
  return res.body._id;
}

async function traceOf(chatId: string): Promise<any> {
  const res = await server.get(`/api/bot-traces/find${qs({ filters: `chatId;eq;${chatId}` })}`);
  expect(res.body).toHaveLength(1);
  return res.body[0];
}

describe('OpenAI-compatible provider', () => {
  it('sends the knowledge-aware prompt and records the upstream usage', async () => {
    fake.handle((_req, res) => json(res, 200, completion('Se envían en 48 horas laborables.', { prompt_tokens: 321, completion_tokens: 9 })));
    const id = await start();
    const res = await visitor.post(`/api/chat/message/${id}`, { message: '¿Cuánto tarda el envío de un pedido?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.chats[1].message).toBe('Se envían en 48 horas laborables.');

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0];
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-secret');
    expect(request.body.model).toBe('fake-model');
    const [system, user] = request.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Fragmentos recuperados');
    expect(system.content).toContain('48 horas laborables');
    expect(user).toEqual({ role: 'user', content: '¿Cuánto tarda el envío de un pedido?' });

    const trace = await traceOf(res.body.chats[1].id);
    expect(trace).toMatchObject({
      status: { name: 'ok' },
      provider: 'openai-compatible',
      model: 'fake-model',
      inputTokens: 321,
      outputTokens: 9,
      tokens: 330,
      assistantMessage: 'Se envían en 48 horas laborables.',
    });
    expect(trace.knowledgeBase[0]).toMatchObject({ source: 'Envíos', content: expect.stringContaining('48 horas') });
  });

  it('streams the upstream deltas to the visitor once the answer is too long to be the "no information" phrase', async () => {
    // Held while it could still be replaced by the fallback (hold-until-answer.ts): the first
    // delta carries what was held, the rest stream as they come.
    const parts = ['Se envían en un plazo ', 'de 48 horas laborables ', 'desde la confirmación del pedido, ', 'de lunes a viernes ', 'salvo festivos; ', 'recibirás un correo ', 'con el seguimiento.'];
    fake.handle((_req, res) => sse(res, [...parts.map((part) => chunk(part)), chunk(null, { prompt_tokens: 100, completion_tokens: 5 })]));
    const id = await start();
    const res = await fetch(`${server.baseUrl}/api/chat/message/${id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '¿Cuánto tarda el envío?' }),
    });
    const events = parseSse(await res.text());
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text);
    expect(deltas.join('')).toBe(parts.join(''));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.length).toBeLessThan(parts.length);
    expect(deltas.slice(1)).toEqual(parts.slice(parts.length - deltas.length + 1));
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data.conversation.chats[1].message).toBe(parts.join('').trim());
    expect(fake.requests[0].body.stream).toBe(true);
    const trace = await traceOf(done.data.conversation.chats[1].id);
    expect(trace).toMatchObject({ status: { name: 'ok' }, inputTokens: 100, outputTokens: 5, tokens: 105 });
  });

  it('an upstream error keeps the conversation consistent and records a trace with status error', async () => {
    fake.handle((_req, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }));
    const id = await start();
    const res = await visitor.post(`/api/chat/message/${id}`, { message: '¿Cuánto tarda el envío?' });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The assistant could not answer right now; the failure was recorded in the bot trace.');
    expect(res.body.i18nMessage).toBe('chat.error.unavailable');
    // Nothing about the upstream (address, key) reaches the visitor.
    expect(res.text).not.toContain('127.0.0.1');
    expect(res.text).not.toContain('sk-test');
    const chats = res.body.conversation.chats;
    expect(chats.map((c: any) => c.role)).toEqual(['user', 'assistant']);
    expect(chats[0].message).toBe('¿Cuánto tarda el envío?');
    expect(chats[1].message).toBe('Lo siento, ahora mismo no puedo responder. Por favor, inténtalo de nuevo en unos minutos.');
    expect((await visitor.get(`/api/chat/conversation/${id}`)).body.chats).toEqual(chats);

    const trace = await traceOf(chats[1].id);
    expect(trace.status.name).toBe('error');
    expect(trace.assistantMessage).toMatch(/^Error \(auth\): .*API key/);
    expect(trace).toMatchObject({ provider: 'openai-compatible', model: 'fake-model', userMessage: '¿Cuánto tarda el envío?', outputTokens: 0 });
    expect(trace.inputTokens).toBeGreaterThan(0);
  });

  it('never streams a "no information" reply that the fallback replaces, however it is cut', async () => {
    const withFallback = (await create(server, '/api/bots', minimalBot('Con respaldo', { knowledge: (await server.get(`/api/bots/${botId}`)).body.knowledge._id, fallbackMessage: 'Escríbenos a ayuda@example.com y te respondemos hoy.' })))._id;
    const replies = [
      ['Lo siento, ', 'no tengo información ', 'para responder a eso.'],
      ['No tengo información para responder a eso.'],
      ['NO TENGO', ' INFORMACIÓN PARA', ' RESPONDER A ESO'],
      ['Escríbenos a ', 'ayuda@example.com ', 'y te respondemos hoy.'],
    ];
    for (const reply of replies) {
      fake.handle((_req, res) => sse(res, [...reply.map((part) => chunk(part)), chunk(null, { prompt_tokens: 10, completion_tokens: 3 })]));
      const started = await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId: withFallback });
      const res = await fetch(`${server.baseUrl}/api/chat/message/${started.body._id}/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: '¿Cuánto tarda el envío de un pedido?' }),
      });
      const events = parseSse(await res.text());
      expect(events.filter((e) => e.event === 'delta'), reply.join('|')).toEqual([]);
      expect(events.at(-1)!.event).toBe('done');
      expect(events.at(-1)!.data.conversation.chats[1].message).toBe('Escríbenos a ayuda@example.com y te respondemos hoy.');
      expect((await traceOf(events.at(-1)!.data.conversation.chats[1].id)).status.name).toBe('no_answer');
    }
  });

  it('an upstream error mid-stream ends the stream with an error event', async () => {
    fake.handle((_req, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }));
    // A question the knowledge base answers: with nothing retrieved the model is not asked (no_answer).
    const id = await start();
    const res = await fetch(`${server.baseUrl}/api/chat/message/${id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '¿Cuánto tarda el envío de un pedido?' }),
    });
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    expect(events.at(-1)!.event).toBe('error');
    expect(events.at(-1)!.data).toMatchObject({ status: 502, i18nMessage: 'chat.error.unavailable' });
    expect(events.at(-1)!.data.conversation.chats).toHaveLength(2);
  });
});
