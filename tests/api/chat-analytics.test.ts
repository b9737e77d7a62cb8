import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
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
    for (const message of ['Hola', '¿Qué tal?', 'Adiós']) await visitor.post(`/api/chat/message/${conversation._id}`, { message });
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

  it('validates the range and needs a signed-in user with bot trace permission', async () => {
    expect((await server.get(`/api/chat/analytics${qs({ from: '2026-13-01' })}`)).status).toBe(400);
    expect((await server.get(`/api/chat/analytics${qs({ from: '2026-02-01', to: '2026-01-01' })}`)).status).toBe(400);
    expect((await anonymous(server.baseUrl).get('/api/chat/analytics')).status).toBe(401);
  });
});
