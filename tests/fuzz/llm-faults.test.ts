import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from '../api/helpers/test-server.ts';
import { create, minimalBot } from '../api/helpers/fixtures.ts';
import { anonymous, parseSse, type Visitor } from '../api/chat-visitor.ts';
import { fakeLlmEnvironment, json, startFakeOpenAiServer, type FakeHandler, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

/**
 * An LLM provider that times out, resets the connection or answers garbage leaves the conversation
 * consistent (the visitor's message and a fallback answer, nothing half-written) and a bot trace
 * with status error that says what failed. (An upstream HTTP error is covered by chat-openai.test.ts.)
 */
let fake: FakeOpenAiServer;
let server: TestServer;
let visitor: Visitor;
let botId: string;

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  server = await startTestServer({
    env: fakeLlmEnvironment(fake, { LLM_API_KEY: 'sk-fault-secret', LLM_TIMEOUT_MS: '800' }),
  });
  visitor = anonymous(server.baseUrl);
  botId = (await create(server, '/api/bots', minimalBot('Frágil')))._id;
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const FAULTS: Record<string, FakeHandler> = {
  'times out': () => {
    // never answers
  },
  'resets the connection': (_req, res) => res.socket?.destroy(),
  'answers non-JSON garbage': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('<html>gateway says hi</html>\u0000\uffff');
  },
  'answers JSON of the wrong shape': (_req, res) => json(res, 200, { choices: 'nope', usage: { prompt_tokens: 'many' } }),
  'answers with no choices': (_req, res) => json(res, 200, { id: 'x', object: 'chat.completion', choices: [] }),
  'answers 500 then 503 (retries exhausted)': (_req, res) => json(res, _req.url.length % 2 ? 500 : 503, { error: { message: 'overloaded' } }),
};

describe('LLM provider faults', () => {
  for (const [name, handler] of Object.entries(FAULTS)) {
    it(`${name}: conversation consistent, trace records the failure, nothing upstream leaks`, async () => {
      fake.handle(handler);
      const started = await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId });
      expect(started.status).toBe(201);
      const id = started.body._id;
      const res = await visitor.post(`/api/chat/message/${id}`, { message: `¿Funciona? (${name})` });
      // 502 bad answer, 503 unreachable, 504 timeout (server/llm/llm-error.ts); 200 if the offline fallback answered.
      expect([200, 502, 503, 504]).toContain(res.status);
      expect(res.text).not.toContain('sk-fault-secret');
      expect(res.text).not.toContain('127.0.0.1');
      const conversation = (await visitor.get(`/api/chat/conversation/${id}`)).body;
      const chats = conversation.chats;
      expect(chats.map((c: any) => c.role)).toEqual(['user', 'assistant']);
      expect(chats[0].message).toBe(`¿Funciona? (${name})`);
      expect(typeof chats[1].message).toBe('string');
      expect(chats[1].message.length).toBeGreaterThan(0);
      const traces = await server.get(`/api/bot-traces/find${qs({ filters: `chatId;eq;${chats[1].id}` })}`);
      expect(traces.body).toHaveLength(1);
      const trace = traces.body[0];
      if (res.status !== 200) {
        expect(res.body.i18nMessage).toBe('chat.error.unavailable');
        expect(trace.status.name).toBe('error');
        expect(trace.assistantMessage).toMatch(/^Error \(/);
      }
      console.log(`[llm-faults] ${name}: HTTP ${res.status}, trace ${trace.status.name}: ${String(trace.assistantMessage).slice(0, 100)}`);
      // Once the provider behaves, "Reintentar" (the same question) takes the failed exchange's
      // place instead of storing the question twice; the failure's trace stays.
      fake.handle((_req, r) => json(r, 200, { id: 'ok', object: 'chat.completion', created: 1, model: 'fake-model', choices: [{ index: 0, message: { role: 'assistant', content: 'Sí.' }, finish_reason: 'stop' }] }));
      const retried = await visitor.post(`/api/chat/message/${id}`, { message: `¿Funciona? (${name})` });
      expect(retried.status, retried.text).toBe(200);
      const failed = res.status !== 200;
      expect(retried.body.chats.map((c: any) => c.message)).toEqual(
        failed ? [`¿Funciona? (${name})`, 'Sí.'] : [`¿Funciona? (${name})`, chats[1].message, `¿Funciona? (${name})`, 'Sí.'],
      );
      if (failed) expect((await server.get(`/api/bot-traces/find${qs({ filters: `chatId;eq;${chats[1].id}` })}`)).body[0].status.name).toBe('error');
      // A new question is appended as usual.
      const again = await visitor.post(`/api/chat/message/${id}`, { message: 'Otra vez' });
      expect(again.status, again.text).toBe(200);
      expect(again.body.chats.map((c: any) => c.role)).toEqual(failed ? ['user', 'assistant', 'user', 'assistant'] : ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
      // The same question again after a good answer is a new question, stored again.
      const repeated = await visitor.post(`/api/chat/message/${id}`, { message: 'Otra vez' });
      expect(repeated.body.chats.filter((c: any) => c.message === 'Otra vez')).toHaveLength(2);
    }, 30_000);
  }

  it('streaming: a provider that times out ends the stream with an error event and a consistent conversation', async () => {
    fake.handle(() => {});
    const id = (await visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId })).body._id;
    const res = await fetch(`${server.baseUrl}/api/chat/message/${id}/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: '¿Hacéis envíos?' }) });
    const events = parseSse(await res.text());
    expect(events.at(-1)!.event).toBe('error');
    expect(events.at(-1)!.data.conversation.chats.map((c: any) => c.role)).toEqual(['user', 'assistant']);
    expect((await visitor.get(`/api/chat/conversation/${id}`)).body.chats).toHaveLength(2);
  }, 30_000);
});
