import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';
import { spawnServer, type ChildServer } from '../fuzz/helpers/child-server.ts';
import { redisTestUrl } from './helpers/redis-test-url.ts';
import { chunk, completion, json, sse, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

/**
 * The chat's per-conversation lock and message limit across two real server processes on one
 * PostgreSQL database: once through PostgreSQL alone (advisory locks, a shared counter table) and
 * once with Redis (server/db/coordination). The model is a local fake that answers after
 * a pause and records how many requests it had at once: without a shared lock two instances
 * answer one conversation together, and one exchange overwrites the other.
 */
const redisUrl = redisTestUrl('chat-multi-instance') ?? '';
const CONVERSATION_LIMIT = 6;
const ADMIN_PASSWORD = 'Chat-multi-admin-1234';

async function call(base: string, method: string, p: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text, text };
}

const variants = [
  { name: 'PostgreSQL advisory locks and counter table (no Redis)', redis: false },
  { name: 'Redis', redis: true },
];

describe.skipIf(TEST_BACKEND !== 'postgres').each(variants)('chat across two instances: $name', ({ redis }) => {
  const enabled = !redis || redisUrl !== '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-chat-multi-'));
  let databaseUrl = '';
  let fake: FakeOpenAiServer;
  let a: ChildServer | undefined;
  let b: ChildServer | undefined;
  let inFlight = 0;
  let mostAtOnce = 0;
  let answered = 0;
  let botId = '';

  beforeAll(async () => {
    if (!enabled) return;
    fake = await startFakeOpenAiServer();
    fake.handle((request, response) => {
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      setTimeout(() => {
        inFlight--;
        answered++;
        const usage = { prompt_tokens: 10, completion_tokens: 2 };
        // A streamed request gets server-sent events, as an OpenAI-compatible server sends them.
        if (request.body?.stream) sse(response, [chunk(`Respuesta ${answered}`), chunk(null, usage)]);
        else json(response, 200, completion(`Respuesta ${answered}`, usage));
      }, 300);
    });
    databaseUrl = await createTestPostgresDatabase('forja_chat_multi');
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      API_KEY_SECRET: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      PG_POOL_SIZE: '4',
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_API_KEY: 'sk-test',
      CHAT_RATE_CONVERSATION_PER_MINUTE: String(CONVERSATION_LIMIT),
      CHAT_RATE_MESSAGE_PER_MINUTE: '1000',
      CHAT_RATE_START_PER_MINUTE: '1000',
      ...(redis ? { REDIS_URL: redisUrl, INSTANCE_MODE: 'multi' } : {}),
    };
    a = await spawnServer({ dataDir, env });
    b = await spawnServer({ dataDir, env });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await fake?.close();
    if (databaseUrl) await dropTestPostgresDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it.skipIf(!enabled)('serialises concurrent messages to one conversation through both instances, and counts its limit across them', async () => {
    const login = await call(a!.baseUrl, 'POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(login.status, login.text).toBe(200);
    const bot = await call(a!.baseUrl, 'POST', '/api/bots', { name: 'Multi bot', description: 'Answers on two instances' }, login.body.accessToken);
    expect(bot.status, bot.text).toBe(201);
    botId = bot.body._id;
    const started = await call(b!.baseUrl, 'POST', '/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId: bot.body._id });
    expect(started.status, started.text).toBe(201);
    const id = started.body._id as string;

    // Four messages at once, two through each instance: every one is answered, one at a time.
    const sent = ['uno', 'dos', 'tres', 'cuatro'];
    const replies = await Promise.all(sent.map((message, i) => call(i % 2 === 0 ? a!.baseUrl : b!.baseUrl, 'POST', `/api/chat/message/${id}`, { message })));
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    expect(mostAtOnce).toBe(1);
    // Nothing lost: each question followed by its own answer, as on one instance.
    const stored = await call(a!.baseUrl, 'GET', `/api/chat/conversation/${id}`);
    const chats = stored.body.chats as Array<{ role: string; message: string }>;
    expect(chats).toHaveLength(2 * sent.length);
    expect(chats.filter((c) => c.role === 'user').map((c) => c.message).sort()).toEqual([...sent].sort());
    chats.forEach((chat, index) => expect(chat.role).toBe(index % 2 === 0 ? 'user' : 'assistant'));

    // The conversation's budget (6 a minute) is one budget: 4 spent above, 2 more through either
    // instance, then both refuse.
    expect((await call(b!.baseUrl, 'POST', `/api/chat/message/${id}`, { message: 'cinco' })).status).toBe(200);
    expect((await call(a!.baseUrl, 'POST', `/api/chat/message/${id}`, { message: 'seis' })).status).toBe(200);
    const overA = await call(a!.baseUrl, 'POST', `/api/chat/message/${id}`, { message: 'siete' });
    const overB = await call(b!.baseUrl, 'POST', `/api/chat/message/${id}/stream`, { message: 'ocho' });
    expect([overA.status, overB.status]).toEqual([429, 429]);
    expect(overA.body).toMatchObject({ i18nMessage: 'error.tooManyRequests' });
    const after = await call(b!.baseUrl, 'GET', `/api/chat/conversation/${id}`);
    expect(after.body.chats).toHaveLength(2 * CONVERSATION_LIMIT);
  }, 120_000);

  it.skipIf(!enabled)('a streamed and a plain message through different instances do not interleave either', async () => {
    const started = await call(a!.baseUrl, 'POST', '/api/chat/start', { name: 'Luis', email: 'luis@example.com', botId });
    expect(started.status, started.text).toBe(201);
    const id = started.body._id as string;
    mostAtOnce = 0;
    const [streamed, plain] = await Promise.all([
      call(a!.baseUrl, 'POST', `/api/chat/message/${id}/stream`, { message: 'primera' }),
      call(b!.baseUrl, 'POST', `/api/chat/message/${id}`, { message: 'segunda' }),
    ]);
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('event: done');
    expect(plain.status, plain.text).toBe(200);
    expect(mostAtOnce).toBe(1);
    const stored = await call(b!.baseUrl, 'GET', `/api/chat/conversation/${id}`);
    expect(stored.body.chats).toHaveLength(4);
  }, 120_000);
});
