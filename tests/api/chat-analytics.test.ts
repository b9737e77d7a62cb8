import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge, traceStatus, userWith } from './helpers/fixtures.ts';
import { anonymous } from './chat-visitor.ts';

/** GET /api/chat/analytics: SQL aggregates of bot traces for the console's analytics view. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { CHAT_RATE_START_PER_MINUTE: '1000', CHAT_RATE_MESSAGE_PER_MINUTE: '1000' } });
});
afterAll(async () => server.close());

describe('chat analytics', () => {
  it('counts answers per day, latency buckets and reactions, filtered by bot', async () => {
    const visitor = anonymous(server.baseUrl);
    const bot = await create(server, '/api/bots', minimalBot('Analítica'));
    const other = await create(server, '/api/bots', minimalBot('Otro'));
    const conversation = (await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId: bot._id })).body;
    // Questions, not greetings: greetings are answered by the chat itself, without the model's tokens.
    for (const message of ['¿Hacéis envíos?', '¿Qué horario tenéis?', '¿Aceptáis PayPal?']) await visitor.post(`/api/chat/message/${conversation._id}`, { message });
    const last = (await visitor.get(`/api/chat/conversation/${conversation._id}`)).body.chats;
    await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: last[1].id, reaction: 'Helpful' });
    await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: last[3].id, reaction: 'Unclear' });
    const otherConversation = (await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId: other._id })).body;
    await visitor.post(`/api/chat/message/${otherConversation._id}`, { message: 'Hola' });

    const today = new Date().toISOString().slice(0, 10);
    const res = await server.get(`/api/chat/analytics${qs({ bot: bot._id, from: today, to: today })}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.totals).toMatchObject({ answers: 3, errors: 0, reactions: 2 });
    expect(res.body.totals.tokens).toBeGreaterThan(0);
    expect(res.body.perDay).toEqual([expect.objectContaining({ day: today, answers: 3, errors: 0 })]);
    expect(res.body.latency.reduce((n: number, b: any) => n + b.answers, 0)).toBe(3);
    expect(res.body.latency).toHaveLength(7);
    expect(res.body.reactions).toEqual(expect.arrayContaining([{ reaction: 'Helpful', count: 1 }, { reaction: 'Unclear', count: 1 }]));

    const all = await server.get(`/api/chat/analytics${qs({ from: today, to: today })}`);
    expect(all.body.totals.answers).toBe(4);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await server.get(`/api/chat/analytics${qs({ from: yesterday, to: yesterday })}`)).body.totals.answers).toBe(0);
  });

  it('counts and lists unanswered questions (trace status no_answer), grouped by question and bot, with the bot\'s knowledge base; the trace list filters by that status', async () => {
    const noAnswer = await traceStatus(server, 'no_answer');
    const ok = await traceStatus(server, 'ok');
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Envíos'));
    const bot = await create(server, '/api/bots', minimalBot('Sin respuesta', { knowledge: knowledge._id }));
    const bare = await create(server, '/api/bots', minimalBot('Sin base'));
    const trace = (botId: string, status: string, userMessage: string) => create(server, '/api/bot-traces', { status, bot: botId, userMessage, assistantMessage: 'No tengo información para responder a eso.' });
    const first = await trace(bot._id, noAnswer._id, '¿Enviáis a Marte?');
    const latest = await trace(bot._id, noAnswer._id, '¿Enviáis a Marte?');
    await trace(bare._id, noAnswer._id, '¿Tenéis tienda física?');
    await trace(bot._id, ok._id, '¿Cuánto cuesta el envío?');

    const today = new Date().toISOString().slice(0, 10);
    const res = await server.get(`/api/chat/analytics${qs({ bot: bot._id, from: today, to: today })}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.totals).toMatchObject({ answers: 3, unanswered: 2 });
    expect(res.body.noAnswerStatus).toBe(noAnswer._id);
    expect(res.body.perDay).toEqual([expect.objectContaining({ day: today, answers: 3, unanswered: 2 })]);
    expect(res.body.unansweredQuestions).toEqual([
      { question: '¿Enviáis a Marte?', count: 2, lastAskedAt: expect.any(String), bot: { _id: bot._id, name: 'Sin respuesta', knowledge: knowledge._id }, trace: expect.any(String), conversation: null },
    ]);
    // The latest asking is the one linked (created in the same millisecond, either is the latest).
    expect([first._id, latest._id]).toContain(res.body.unansweredQuestions[0].trace);

    const all = (await server.get(`/api/chat/analytics${qs({ from: today, to: today })}`)).body;
    expect(all.unansweredQuestions.map((q: any) => [q.question, q.bot.knowledge])).toEqual(
      expect.arrayContaining([['¿Enviáis a Marte?', knowledge._id], ['¿Tenéis tienda física?', null]]),
    );
    expect(all.unansweredQuestions.every((q: any) => q.question !== '¿Cuánto cuesta el envío?')).toBe(true);

    // The trace list's status filter (manifest: status eq) narrows to the unanswered ones.
    const filtered = await server.get(`/api/bot-traces${qs({ filters: `status;eq;${noAnswer._id}`, limit: 100 })}`);
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body.items.length).toBeGreaterThanOrEqual(3);
    expect(filtered.body.items.every((item: any) => item.status._id === noAnswer._id)).toBe(true);
    expect(filtered.body.items.map((item: any) => item.userMessage)).not.toContain('¿Cuánto cuesta el envío?');
  });

  it('lists answers rated Incorrect, Unhelpful or Unclear with the bot\'s knowledge base, latest first, and not the others', async () => {
    const visitor = anonymous(server.baseUrl);
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Devoluciones'));
    const bot = await create(server, '/api/bots', minimalBot('Valorado', { knowledge: knowledge._id }));
    const conversation = (await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId: bot._id })).body;
    const questions = ['Pregunta uno', 'Pregunta dos', 'Pregunta tres', 'Pregunta cuatro', 'Pregunta cinco', 'Pregunta seis'];
    for (const message of questions) await visitor.post(`/api/chat/message/${conversation._id}`, { message });
    const chats = (await visitor.get(`/api/chat/conversation/${conversation._id}`)).body.chats.filter((c: any) => c.role === 'assistant');
    const rated = ['Incorrect', 'Helpful', 'Unhelpful', 'Love', 'Unclear', null];
    for (const [i, reaction] of rated.entries()) {
      if (reaction) expect((await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: chats[i].id, reaction })).status).toBe(200);
    }
    // A negative rating changed to a positive one leaves the list.
    await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: chats[5].id, reaction: 'Incorrect' });
    await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: chats[5].id, reaction: 'Perfect' });

    const today = new Date().toISOString().slice(0, 10);
    const res = await server.get(`/api/chat/analytics${qs({ bot: bot._id, from: today, to: today })}`);
    expect(res.status, res.text).toBe(200);
    const listed = res.body.negativeAnswers;
    expect(listed.map((a: any) => [a.question, a.reaction]).sort()).toEqual([['Pregunta cinco', 'Unclear'], ['Pregunta tres', 'Unhelpful'], ['Pregunta uno', 'Incorrect']].sort());
    for (const answer of listed) {
      expect(answer).toMatchObject({ bot: { _id: bot._id, name: 'Valorado', knowledge: knowledge._id }, conversation: conversation._id, trace: expect.any(String), answer: expect.any(String) });
    }
    const times = listed.map((a: any) => a.ratedAt);
    expect(times).toEqual([...times].sort().reverse());

    const tenant = await create(server, '/api/tenants', { name: 'Sin valoraciones' });
    const viewer = await userWith(server, ['bottrace:view'], { tenant: tenant._id });
    expect((await viewer.client.get(`/api/chat/analytics${qs({ from: today, to: today })}`)).body.negativeAnswers).toEqual([]);
  });

  it('the unanswered list is the caller\'s tenant only', async () => {
    const tenant = await create(server, '/api/tenants', { name: 'Otra organización' });
    const viewer = await userWith(server, ['bottrace:view'], { tenant: tenant._id });
    const today = new Date().toISOString().slice(0, 10);
    const res = await viewer.client.get(`/api/chat/analytics${qs({ from: today, to: today })}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.totals.unanswered).toBe(0);
    expect(res.body.unansweredQuestions).toEqual([]);
  });

  it('validates the range and needs a signed-in user with bot trace permission', async () => {
    expect((await server.get(`/api/chat/analytics${qs({ from: '2026-13-01' })}`)).status).toBe(400);
    expect((await server.get(`/api/chat/analytics${qs({ from: '2026-02-01', to: '2026-01-01' })}`)).status).toBe(400);
    expect((await anonymous(server.baseUrl).get('/api/chat/analytics')).status).toBe(401);
  });
});
