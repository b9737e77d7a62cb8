import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge, userWith } from './helpers/fixtures.ts';
import { anonymous } from './chat-visitor.ts';
import { completion, fakeLlmEnvironment, json, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

/**
 * POST /api/chat/preview/:botId (issue 28 item 4): the bot form's preview runs the visitor's
 * pipeline and shows how the answer was made, writing no contact, conversation or trace.
 * Every answer is also checked against the OpenAPI document by the test client.
 */
let server: TestServer;
let botId: string;
let knowledgeId: string;

const SHIPPING = 'Los pedidos se envían en un plazo de 48 horas laborables. El envío es gratuito para compras superiores a 50 euros.';
const HOURS = 'El horario de atención al cliente es de lunes a viernes, de 9:00 a 18:00 horas.';

beforeAll(async () => {
  server = await startTestServer({ env: { CHAT_RATE_MESSAGE_PER_MINUTE: '1000' } });
  const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Tienda', {
    texts: [{ title: 'Envíos', content: SHIPPING }, { title: 'Horario', content: HOURS }],
    scoreThreshold: 0.3,
  }));
  knowledgeId = knowledge._id;
  expect((await server.get(`/api/rag/train/${knowledgeId}`)).status).toBe(200);
  botId = (await create(server, '/api/bots', minimalBot('Tienda', { knowledge: knowledgeId, fallbackMessage: 'Escríbenos a ayuda@example.com.' })))._id;
});
afterAll(async () => server?.close());

/** Rows the preview must never add: the visitor-side records and what analytics read. */
async function visitorRows(): Promise<Record<string, number>> {
  const total = async (base: string) => {
    const res = await server.get(`${base}${qs({ limit: 1 })}`);
    expect(res.status, res.text).toBe(200);
    return res.body.total as number;
  };
  const today = new Date().toISOString().slice(0, 10);
  const analytics = (await server.get(`/api/chat/analytics${qs({ from: today, to: today })}`)).body;
  return {
    contacts: await total('/api/contacts'),
    conversations: await total('/api/conversations'),
    traces: await total('/api/bot-traces'),
    answers: analytics.totals.answers,
    unanswered: analytics.totals.unanswered,
  };
}

const preview = (body: unknown, id = botId, client = server as Pick<TestServer, 'post'>) => client.post(`/api/chat/preview/${id}`, body as Record<string, unknown>);

describe('chat preview', () => {
  it('answers as a visitor would, with the fragments and their scores, the prompt, tokens and latency, and writes no row', async () => {
    const before = await visitorRows();
    const res = await preview({ message: '¿Cuánto tarda el envío de un pedido?' });
    expect(res.status, res.text).toBe(200);
    const body = res.body;
    expect(body.status).toBe('ok');
    expect(body.answer).toContain('48 horas');
    expect(body.error).toBeNull();
    expect(body.fragments.length).toBeGreaterThan(0);
    const best = body.fragments[0];
    expect(best).toMatchObject({ source: 'Envíos', content: expect.stringContaining('48 horas'), used: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(best.score).toBeGreaterThan(0);
    expect(best.score).toBeLessThanOrEqual(1);
    // Best first.
    const scores = body.fragments.map((f: { score: number }) => f.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(body.citations.map((c: { fragmentId: string }) => c.fragmentId)).toContain(best.hash);
    const [system, ...rest] = body.prompt;
    expect(system.role).toBe('system');
    expect(system.content).toContain('48 horas laborables');
    expect(rest.at(-1)).toEqual({ role: 'user', content: '¿Cuánto tarda el envío de un pedido?' });
    expect(body.provider).toBe('offline');
    expect(body.tokens).toBe(body.inputTokens + body.outputTokens);
    expect(body.inputTokens).toBeGreaterThan(0);
    expect(body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(await visitorRows()).toEqual(before);
  });

  it('an unanswerable question gets the fallback (or the draft\'s), no prompt, and no row either', async () => {
    const before = await visitorRows();
    for (const [draft, expected] of [
      [undefined, 'Escríbenos a ayuda@example.com.'],
      [{ fallbackMessage: 'Llámanos al 900 000 000.' }, 'Llámanos al 900 000 000.'],
    ] as const) {
      const res = await preview({ message: 'xylófono quásar zeppelin', ...(draft ? { draft } : {}) });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'no_answer', answer: expected, citations: [], error: null, tokens: 0 });
      expect(res.body.prompt).toBeNull();
    }
    expect(await visitorRows()).toEqual(before);
  });

  it('tries the form\'s unsaved prompt and follows the conversation sent back as history', async () => {
    const res = await preview({
      message: '¿Y el horario?',
      history: [
        { role: 'user', message: '¿Cuánto tarda el envío?' },
        { role: 'assistant', message: 'Se envían en 48 horas laborables.' },
      ],
      draft: { systemPromptWithKnowledge: 'MARCADOR-BORRADOR {{botName}}\n{{documents}}', systemPrompt: 'Sin base MARCADOR' },
    });
    expect(res.status, res.text).toBe(200);
    const prompt = res.body.prompt as { role: string; content: string }[];
    expect(prompt[0].content).toContain('MARCADOR-BORRADOR Tienda');
    expect(prompt.slice(1)).toEqual([
      { role: 'user', content: '¿Cuánto tarda el envío?' },
      { role: 'assistant', content: 'Se envían en 48 horas laborables.' },
      { role: 'user', content: '¿Y el horario?' },
    ]);
    // The stored bot is untouched.
    expect((await server.get(`/api/bots/${botId}`)).body.systemPromptWithKnowledge).not.toContain('MARCADOR');
  });

  it('a draft without a knowledge base answers from the prompt without knowledge; another tenant\'s knowledge base is refused', async () => {
    const bare = await preview({ message: '¿Cuánto tarda el envío?', draft: { knowledge: null, systemPrompt: 'SIN-CONOCIMIENTO' } });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body.fragments).toEqual([]);
    expect(bare.body.prompt[0].content).toContain('SIN-CONOCIMIENTO');

    const tenant = await create(server, '/api/tenants', { name: 'Otra tienda' });
    const editor = await userWith(server, ['bot:update', 'bot:view', 'bot:create'], { tenant: tenant._id });
    const ownBot = await editor.client.post('/api/bots', minimalBot('Suyo'));
    expect(ownBot.status, ownBot.text).toBe(201);
    const refused = await preview({ message: 'Hola', draft: { knowledge: knowledgeId } }, ownBot.body._id, editor.client);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.inputErrors).toEqual([expect.objectContaining({ field: 'draft.knowledge' })]);
  });

  it('needs bot:update (or bot:manage) and the bot in the caller\'s tenant', async () => {
    const message = { message: '¿Cuánto tarda el envío?' };
    expect((await anonymous(server.baseUrl).post(`/api/chat/preview/${botId}`, message)).status).toBe(401);
    for (const permissions of [['bot:view'], ['bottrace:view', 'bottrace:manage'], ['knowledge:manage'], []]) {
      const user = await userWith(server, permissions);
      const res = await preview(message, botId, user.client);
      expect(res.status, `${permissions.join(',')}: ${res.text}`).toBe(403);
    }
    for (const permissions of [['bot:update'], ['bot:manage']]) {
      const user = await userWith(server, permissions);
      const res = await preview(message, botId, user.client);
      expect(res.status, `${permissions.join(',')}: ${res.text}`).toBe(200);
    }
    const tenant = await create(server, '/api/tenants', { name: 'Ajena' });
    const stranger = await userWith(server, ['bot:update'], { tenant: tenant._id });
    expect((await preview(message, botId, stranger.client)).status).toBe(404);
    expect((await preview(message, 'no-such-bot')).status).toBe(404);
  });

  it('refuses bad input with the field at fault', async () => {
    const long = 'a'.repeat(4001);
    const cases: [unknown, string][] = [
      [{}, 'message'],
      [{ message: '   ' }, 'message'],
      [{ message: 42 }, 'message'],
      [{ message: long }, 'message'],
      [{ message: 'Hola', history: 'no' }, 'history'],
      [{ message: 'Hola', history: Array.from({ length: 21 }, () => ({ role: 'user', message: 'x' })) }, 'history'],
      [{ message: 'Hola', history: [{ role: 'system', message: 'x' }] }, 'history.0.role'],
      [{ message: 'Hola', history: [{ role: 'user', message: 'x' }, { role: 'assistant', message: long }] }, 'history.1.message'],
      [{ message: 'Hola', draft: [] }, 'draft'],
      [{ message: 'Hola', draft: { systemPrompt: 'x'.repeat(20001) } }, 'draft.systemPrompt'],
      [{ message: 'Hola', draft: { systemPromptWithKnowledge: '' } }, 'draft.systemPromptWithKnowledge'],
      [{ message: 'Hola', draft: { knowledge: 7 } }, 'draft.knowledge'],
    ];
    for (const [body, field] of cases) {
      const res = await preview(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.inputErrors.map((e: { field: string }) => e.field), res.text).toContain(field);
    }
    expect((await server.post(`/api/chat/preview/${botId}`, [] as never)).status).toBe(400);
  });

  it('is documented with its permission and its answer\'s schema', async () => {
    const doc = (await server.get('/api/docs/json')).body;
    const operation = doc.paths['/api/chat/preview/{botId}'].post;
    expect(operation['x-permission']).toBe('bot:update');
    expect(operation.responses['200'].content['application/json'].schema.required).toContain('fragments');
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '413', '429']));
  });
});

describe('chat preview, model failing', () => {
  let fake: FakeOpenAiServer;
  let failing: TestServer;

  beforeAll(async () => {
    fake = await startFakeOpenAiServer();
    failing = await startTestServer({ env: fakeLlmEnvironment(fake) });
  });
  afterAll(async () => {
    await failing?.close();
    await fake?.close();
  });

  it('shows the failure and the prompt, and records no error trace', async () => {
    const bot = await create(failing, '/api/bots', minimalBot('Remoto'));
    fake.handle((_req, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }));
    const res = await failing.post(`/api/chat/preview/${bot._id}`, { message: '¿Hacéis envíos?' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'error', error: { code: expect.any(String), message: expect.stringContaining('API key') } });
    expect(res.body.answer).not.toContain('API key');
    expect(res.body.prompt.at(-1)).toEqual({ role: 'user', content: '¿Hacéis envíos?' });

    fake.handle((_req, res) => json(res, 200, completion('Sí, a toda España.', { prompt_tokens: 50, completion_tokens: 6 })));
    const ok = await failing.post(`/api/chat/preview/${bot._id}`, { message: '¿Hacéis envíos?' });
    expect(ok.body).toMatchObject({ status: 'ok', answer: 'Sí, a toda España.', provider: 'openai-compatible', model: 'fake-model', inputTokens: 50, outputTokens: 6, tokens: 56 });
    expect((await failing.get(`/api/bot-traces${qs({ limit: 1 })}`)).body.total).toBe(0);
  });
});
