import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';

/** Rate limits of the public chat: per IP and per conversation, answered 429 in the error shape. */
let server: TestServer;
let visitor: Visitor;
let botId: string;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      CHAT_RATE_START_PER_MINUTE: '2',
      CHAT_RATE_MESSAGE_PER_MINUTE: '5',
      CHAT_RATE_CONVERSATION_PER_MINUTE: '3',
      CHAT_RATE_READ_PER_MINUTE: '1000',
    },
  });
  visitor = anonymous(server.baseUrl);
  botId = (await create(server, '/api/bots', minimalBot('Limitado')))._id;
});
afterAll(async () => server.close());

describe('chat rate limits', () => {
  it('limits starts per IP, messages per conversation and per IP', async () => {
    const first = await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId });
    const second = await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId });
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId });
    expect(third.status).toBe(429);
    expect(third.body).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(third.headers.get('retry-after')).not.toBeNull();

    const a = first.body._id;
    const b = second.body._id;
    for (let i = 0; i < 3; i++) expect((await visitor.post(`/api/chat/message/${a}`, { message: `Hola ${i}` })).status).toBe(200);
    // The conversation's budget is spent, whatever the route (stream shares it).
    expect((await visitor.post(`/api/chat/message/${a}`, { message: 'Hola otra vez' })).status).toBe(429);
    expect((await visitor.post(`/api/chat/message/${a}/stream`, { message: 'Hola otra vez' })).status).toBe(429);
    // Another conversation still has its own budget, until the IP's is spent.
    expect((await visitor.post(`/api/chat/message/${b}`, { message: 'Hola' })).status).toBe(200);
    const overIp = await visitor.post(`/api/chat/message/${b}`, { message: 'Hola' });
    expect(overIp.status).toBe(429);

    // Nothing refused was stored.
    const stored = await visitor.get(`/api/chat/conversation/${a}`);
    expect(stored.body.chats).toHaveLength(6);
  });
});
