import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';

/** Answers cite their sources (issue 20 item 5): on the assistant chat, in the trace, and not on unanswered questions. */
let server: TestServer;
let visitor: Visitor;
let botId: string;

const SHIPPING = 'Los pedidos se envían en un plazo de 48 horas laborables. El envío es gratuito para compras superiores a 50 euros.';
const HOURS = 'El horario de atención al cliente es de lunes a viernes, de 9:00 a 18:00 horas.';

beforeAll(async () => {
  server = await startTestServer({ env: { CHAT_RATE_START_PER_MINUTE: '1000', CHAT_RATE_MESSAGE_PER_MINUTE: '1000' } });
  visitor = anonymous(server.baseUrl);
  const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Tienda', {
    texts: [
      { title: 'Envíos', content: SHIPPING },
      { title: 'Horario', content: HOURS },
    ],
    scoreThreshold: 0.3,
  }));
  expect((await server.get(`/api/rag/train/${knowledge._id}`)).status).toBe(200);
  botId = (await create(server, '/api/bots', minimalBot('Tienda', { knowledge: knowledge._id })))._id;
});
afterAll(async () => server?.close());

async function ask(message: string) {
  const started = await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId });
  expect(started.status, started.text).toBe(201);
  const res = await visitor.post(`/api/chat/message/${started.body._id}`, { message });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function traceOf(chatId: string): Promise<any> {
  const res = await server.get(`/api/bot-traces/find${qs({ filters: `chatId;eq;${chatId}` })}`);
  expect(res.body).toHaveLength(1);
  return res.body[0];
}

describe('citations', () => {
  it('cite the fragment the answer quotes, with its source name, fragment id and an excerpt', async () => {
    const conversation = await ask('¿Cuánto tarda el envío de un pedido?');
    const answer = conversation.chats[1];
    expect(answer.message).toContain('48 horas');
    expect(answer.citations).toEqual([
      { source: 'Envíos', fragmentId: expect.stringMatching(/^[0-9a-f]{64}$/), excerpt: expect.stringContaining('48 horas laborables') },
    ]);
    expect(answer.citations[0].excerpt.length).toBeLessThanOrEqual(201);
    // The visitor's own message cites nothing.
    expect(conversation.chats[0].citations).toBeUndefined();

    const trace = await traceOf(answer.id);
    expect(trace.citations).toEqual(answer.citations);
    expect(trace.knowledgeBase.map((k: any) => k.hash)).toContain(answer.citations[0].fragmentId);
  });

  it('are kept: the conversation read back shows them', async () => {
    const conversation = await ask('¿Cuál es el horario de atención al cliente?');
    const again = await visitor.get(`/api/chat/conversation/${conversation._id}`);
    expect(again.body.chats[1].citations).toEqual([expect.objectContaining({ source: 'Horario', excerpt: expect.stringContaining('lunes a viernes') })]);
  });

  it('are absent on an unanswered question, in the chat and in the trace', async () => {
    const conversation = await ask('¿Quién ganó el mundial de fútbol de 1986?');
    expect(conversation.chats[1].citations).toBeUndefined();
    const trace = await traceOf(conversation.chats[1].id);
    expect(trace.status.name).toBe('no_answer');
    expect(trace.citations ?? []).toEqual([]);
  });
});
