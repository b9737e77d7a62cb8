import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { anonymous, parseSse, type Visitor } from './chat-visitor.ts';
import { withOtherConnection } from './helpers/test-database.ts';

/**
 * The public chat API with the offline provider (no LLM_* configured, no network): start, bot,
 * conversation, message -> answer + trace, streaming, reactions, validation and limits.
 */
const KNOWLEDGE_TEXT = [
  'Para restablecer la contraseña, abre la página de inicio de sesión y pulsa el enlace "¿Olvidaste tu contraseña?". Recibirás un código de recuperación por correo electrónico.',
  'El horario de atención al cliente es de lunes a viernes, de 9:00 a 18:00 horas. Los fines de semana no hay atención telefónica.',
  'Los pedidos se envían en un plazo de 48 horas laborables. El envío es gratuito para compras superiores a 50 euros.',
].join('\n\n');

let server: TestServer;
/** Visitors have no account: chat calls carry no credentials. */
let visitor: Visitor;
let bot: any; // trained knowledge base
let plainBot: any; // no knowledge base

async function trainedKnowledge(name: string): Promise<any> {
  const knowledge = await create(server, '/api/knowledge', minimalKnowledge(name, { texts: [{ title: 'Manual de soporte', content: KNOWLEDGE_TEXT }], scoreThreshold: 0.3 }));
  const trained = await server.get(`/api/rag/train/${knowledge._id}`);
  expect(trained.status, trained.text).toBe(200);
  expect(trained.body.chunks).toBeGreaterThan(0);
  return knowledge;
}

async function start(botId: string, name = 'Ana García', email = 'ana@example.com') {
  const res = await visitor.post('/api/chat/start', { name, email, botId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function traceOf(chatId: string): Promise<any> {
  const res = await server.get(`/api/bot-traces/find${qs({ filters: `chatId;eq;${chatId}` })}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toHaveLength(1);
  return res.body[0];
}

beforeAll(async () => {
  // Many starts and messages from one IP here; chat-limits.test.ts covers the limits themselves.
  server = await startTestServer({ env: { CHAT_RATE_START_PER_MINUTE: '1000', CHAT_RATE_MESSAGE_PER_MINUTE: '1000', CHAT_RATE_READ_PER_MINUTE: '1000' } });
  visitor = anonymous(server.baseUrl);
  const knowledge = await trainedKnowledge('Soporte');
  bot = await create(server, '/api/bots', minimalBot('Asistente', { knowledge: knowledge._id, questions: ['¿Cuál es el horario de atención?', '¿Cuánto tarda el envío?'] }));
  plainBot = await create(server, '/api/bots', minimalBot('Sin conocimiento'));
});
afterAll(async () => server.close());

describe('POST /api/chat/start', () => {
  it.each([
    [{ name: '', email: '' }, [{ field: 'name', reason: 'chat.validation.nameRequired' }, { field: 'email', reason: 'chat.validation.emailRequired' }]],
    [{ name: '   ', email: 'ana@example.com' }, [{ field: 'name', reason: 'chat.validation.nameRequired' }]],
    [{ name: 'A', email: 'ana@example.com' }, [{ field: 'name', reason: 'chat.validation.nameMin' }]],
    [{ name: 'Ana', email: 'not-an-email' }, [{ field: 'email', reason: 'chat.validation.emailInvalid' }]],
    [{ email: 'ana@' }, [{ field: 'name', reason: 'chat.validation.nameRequired' }, { field: 'email', reason: 'chat.validation.emailInvalid' }]],
  ])('rejects %j with the spec messages', async (input, inputErrors) => {
    const res = await visitor.post('/api/chat/start', { ...input, botId: bot._id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Validation failed', i18nMessage: 'error.validation', inputErrors });
  });

  it('has Spanish texts for every reason', async () => {
    const { default: es } = await import('../../locales/es.json', { with: { type: 'json' } });
    expect((es as any).chat.validation).toEqual({
      nameRequired: 'El nombre es requerido.',
      nameMin: 'El nombre debe tener al menos 2 caracteres.',
      emailRequired: 'El correo electrónico es requerido.',
      emailInvalid: 'El correo electrónico debe ser válido.',
    });
  });

  it('requires a botId and answers 404 for an unknown bot', async () => {
    const missing = await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body.inputErrors).toEqual([{ field: 'botId', reason: 'validation.required' }]);
    const unknown = await visitor.post('/api/chat/start', { name: 'Ana', email: 'ana@example.com', botId: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Bot not found');
  });

  it('creates a conversation with an unguessable random id and a new contact each time, never the existing one of that e-mail', async () => {
    const first = await start(bot._id, 'Ana García', 'Ana@Example.com');
    expect(first._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first).toMatchObject({ bot: { _id: bot._id, name: 'Asistente' }, contact: { name: 'Ana García' }, chats: [] });
    expect(first).not.toHaveProperty('tenant');
    const second = await start(bot._id, 'Ana G.', 'ana@example.com');
    expect(second._id).not.toBe(first._id);
    // Typing an e-mail proves nothing: the second visitor gets a contact of its own, named as typed
    // (chat-privacy.test.ts covers what must not leak).
    expect(second.contact._id).not.toBe(first.contact._id);
    expect(second.contact.name).toBe('Ana G.');
    const contacts = await server.get(`/api/contacts/search${qs({ search: 'ana@example.com' })}`);
    expect(contacts.status, contacts.text).toBe(200);
    expect(contacts.body.filter((c: any) => c.email.toLowerCase() === 'ana@example.com')).toHaveLength(2);
  });
});

describe('GET /api/chat/bot/:id and /api/chat/conversation/:id', () => {
  it('shows only the bot name, questions, welcome message and widget look', async () => {
    const res = await visitor.get(`/api/chat/bot/${bot._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: bot._id,
      name: 'Asistente',
      questions: ['¿Cuál es el horario de atención?', '¿Cuánto tarda el envío?'],
      welcomeMessage: '',
      widgetTitle: 'Asistente',
      widgetColor: '#228be6',
      widgetPosition: 'right',
      widgetTheme: 'auto',
    });
    expect((await visitor.get('/api/chat/bot/unknown')).status).toBe(404);
  });

  it('returns a conversation by id; 404 for an unknown one', async () => {
    const conversation = await start(bot._id);
    const res = await visitor.get(`/api/chat/conversation/${conversation._id}`);
    expect(res.status).toBe(200);
    // Only the start answer carries the resume token.
    const { token, ...view } = conversation;
    expect(token).toMatch(/^v1\./);
    expect(res.body).toEqual(view);
    const unknown = await visitor.get('/api/chat/conversation/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Conversation not found' });
  });
});

describe('POST /api/chat/message/:conversationId (offline provider)', () => {
  it('answers from the trained knowledge base and records a complete trace', async () => {
    const conversation = await start(bot._id);
    const before = Date.now();
    const res = await visitor.post(`/api/chat/message/${conversation._id}`, { message: '  ¿Cuál es el horario de atención al cliente?  ' });
    expect(res.status, res.text).toBe(200);
    const chats = res.body.chats;
    expect(chats).toHaveLength(2);
    expect(chats[0]).toEqual({ id: expect.any(String), role: 'user', message: '¿Cuál es el horario de atención al cliente?', createdAt: expect.any(String) });
    expect(chats[1]).toMatchObject({ role: 'assistant', id: expect.any(String) });
    expect(chats[1].message).toContain('de lunes a viernes, de 9:00 a 18:00');
    expect(Date.parse(chats[1].createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const trace = await traceOf(chats[1].id);
    expect(trace).toMatchObject({
      status: { name: 'ok' },
      bot: { _id: bot._id, name: 'Asistente' },
      conversation: { _id: conversation._id },
      chatId: chats[1].id,
      userMessage: '¿Cuál es el horario de atención al cliente?',
      assistantMessage: chats[1].message,
      reaction: null,
      knowledgeBaseQuery: '¿Cuál es el horario de atención al cliente?',
      provider: 'offline',
      model: 'extractive-v1',
    });
    expect(trace.knowledgeBase.length).toBeGreaterThan(0);
    for (const fragment of trace.knowledgeBase) {
      expect(fragment).toEqual({ source: 'Manual de soporte', hash: expect.stringMatching(/^[0-9a-f]{64}$/), content: expect.any(String) });
    }
    expect(trace.knowledgeBase[0].content).toContain('horario de atención');
    expect(trace.inputTokens).toBeGreaterThan(0);
    expect(trace.outputTokens).toBeGreaterThan(0);
    expect(trace.tokens).toBe(trace.inputTokens + trace.outputTokens);
    expect(Number.isInteger(trace.latency)).toBe(true);
    expect(trace.latency).toBeGreaterThanOrEqual(0);
    expect(trace.tenant).toBeNull();

    const stored = await visitor.get(`/api/chat/conversation/${conversation._id}`);
    expect(stored.body.chats).toEqual(chats);
  });

  it('keeps the history: a second message appends two more chats', async () => {
    const conversation = await start(bot._id);
    await visitor.post(`/api/chat/message/${conversation._id}`, { message: '¿Cuánto tarda el envío de un pedido?' });
    const res = await visitor.post(`/api/chat/message/${conversation._id}`, { message: '¿El envío es gratuito?' });
    expect(res.body.chats.map((c: any) => c.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(res.body.chats[1].message).toContain('48 horas');
    expect(res.body.chats[3].message).toContain('50 euros');
  });

  it('falls back to the spec answer when the knowledge base has nothing relevant', async () => {
    const conversation = await start(bot._id);
    const res = await visitor.post(`/api/chat/message/${conversation._id}`, { message: '¿Quién ganó el mundial de fútbol de 1986?' });
    expect(res.status).toBe(200);
    expect(res.body.chats[1].message).toBe('No tengo información para responder a eso.');
    const trace = await traceOf(res.body.chats[1].id);
    expect(trace.knowledgeBase).toEqual([]);
    expect(trace.status.name).toBe('no_answer');
  });

  it('answers off-topic when the bot has no trained knowledge base', async () => {
    const conversation = await start(plainBot._id);
    const res = await visitor.post(`/api/chat/message/${conversation._id}`, { message: '¿Cuál es el horario de atención?' });
    expect(res.body.chats[1].message).toBe('No puedo ayudarte con eso.');
    const untrained = await create(server, '/api/knowledge', minimalKnowledge('Vacía'));
    const untrainedBot = await create(server, '/api/bots', minimalBot('Sin entrenar', { knowledge: untrained._id }));
    const other = await start(untrainedBot._id);
    const res2 = await visitor.post(`/api/chat/message/${other._id}`, { message: '¿Cuál es el horario de atención?' });
    expect(res2.body.chats[1].message).toBe('No puedo ayudarte con eso.');
  });

  it('rejects blank and oversized messages with 400 and stores nothing', async () => {
    const conversation = await start(bot._id);
    const blank = await visitor.post(`/api/chat/message/${conversation._id}`, { message: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.inputErrors).toEqual([{ field: 'message', reason: 'validation.required' }]);
    const long = await visitor.post(`/api/chat/message/${conversation._id}`, { message: 'a'.repeat(4001) });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('at most 4000');
    const exact = await visitor.post(`/api/chat/message/${conversation._id}`, { message: 'horario '.repeat(500).slice(0, 4000) });
    expect(exact.status).toBe(200);
    expect((await visitor.get(`/api/chat/conversation/${conversation._id}`)).body.chats).toHaveLength(2);
  });

  it('answers 404 for an unknown conversation', async () => {
    const res = await visitor.post('/api/chat/message/4b1e7a1e-0000-4000-8000-000000000000', { message: 'Hola' });
    expect(res.status).toBe(404);
  });
});

describe('POST /api/chat/message/:conversationId/stream', () => {
  it('streams delta events then a done event with the saved conversation', async () => {
    const conversation = await start(bot._id);
    const res = await fetch(`${server.baseUrl}/api/chat/message/${conversation._id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '¿Cómo restablezco la contraseña?' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    const deltas = events.filter((e) => e.event === 'delta');
    const done = events.filter((e) => e.event === 'done');
    expect(deltas.length).toBeGreaterThan(1);
    expect(done).toHaveLength(1);
    expect(events.at(-1)!.event).toBe('done');
    const saved = done[0].data.conversation;
    expect(saved.chats).toHaveLength(2);
    expect(deltas.map((e) => e.data.text).join('').trim()).toBe(saved.chats[1].message);
    expect(saved.chats[1].message).toContain('contraseña');
    expect((await traceOf(saved.chats[1].id)).status.name).toBe('ok');
  });

  it('answers plain JSON errors before the stream opens', async () => {
    const unknown = await visitor.post('/api/chat/message/4b1e7a1e-0000-4000-8000-000000000000/stream', { message: 'Hola' });
    expect(unknown.status).toBe(404);
    const conversation = await start(bot._id);
    const long = await visitor.post(`/api/chat/message/${conversation._id}/stream`, { message: 'x'.repeat(5000) });
    expect(long.status).toBe(400);
  });
});

describe('POST /api/chat/reaction/:conversationId', () => {
  it('sets the reaction on the chat and on its trace, and clears it with null', async () => {
    const conversation = await start(bot._id);
    const answered = await visitor.post(`/api/chat/message/${conversation._id}`, { message: '¿Cuál es el horario de atención?' });
    const chatId = answered.body.chats[1].id;
    const res = await visitor.post(`/api/chat/reaction/${conversation._id}`, { conversationId: conversation._id, chatId, reaction: 'Helpful' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.chats[1]).toMatchObject({ id: chatId, reaction: 'Helpful' });
    expect(res.body.chats[0].reaction).toBeUndefined();
    expect((await traceOf(chatId)).reaction).toBe('Helpful');
    const filtered = await server.get(`/api/bot-traces${qs({ filters: 'reaction;eq;Helpful' })}`);
    expect(filtered.body.items.map((t: any) => t.chatId)).toContain(chatId);

    const changed = await visitor.post(`/api/chat/reaction/${conversation._id}`, { conversationId: conversation._id, chatId, reaction: 'Love' });
    expect(changed.body.chats[1].reaction).toBe('Love');
    const cleared = await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId, reaction: null });
    expect(cleared.body.chats[1].reaction).toBeNull();
    expect((await traceOf(chatId)).reaction).toBeNull();
  });

  it('validates the reaction, the chat and the conversation', async () => {
    const conversation = await start(bot._id);
    const answered = await visitor.post(`/api/chat/message/${conversation._id}`, { message: 'Hola' });
    const [userChat, botChat] = answered.body.chats;
    const bad = await visitor.post(`/api/chat/reaction/${conversation._id}`, { conversationId: conversation._id, chatId: botChat.id, reaction: 'Meh' });
    expect(bad.status).toBe(400);
    expect(bad.body.inputErrors).toEqual([{ field: 'reaction', reason: 'validation.invalidValue' }]);
    const mismatch = await visitor.post(`/api/chat/reaction/${conversation._id}`, { conversationId: 'other', chatId: botChat.id, reaction: 'Love' });
    expect(mismatch.status).toBe(400);
    const onUser = await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: userChat.id, reaction: 'Love' });
    expect(onUser.status).toBe(400);
    const noChat = await visitor.post(`/api/chat/reaction/${conversation._id}`, { chatId: 'missing', reaction: 'Love' });
    expect(noChat.status).toBe(404);
    const noConversation = await visitor.post('/api/chat/reaction/4b1e7a1e-0000-4000-8000-000000000000', { chatId: botChat.id, reaction: 'Love' });
    expect(noConversation.status).toBe(404);
  });
});

describe('tenancy', () => {
  it('puts contacts, conversations and traces in the bot tenant', async () => {
    const tenant = await create(server, '/api/tenants', { name: 'Acme' });
    const tenantBot = await create(server, '/api/bots', minimalBot('Acme bot'));
    // As if a tenant administrator had created it: the tenant column is not a form field.
    await withOtherConnection(server.dataDir, (db) =>
      db.run(db.kysely.updateTable('bots').set({ tenant: tenant._id }).where('_id', '=', tenantBot._id).compile()),
    );
    const conversation = await start(tenantBot._id, 'Luis', 'luis@acme.test');
    const answered = await visitor.post(`/api/chat/message/${conversation._id}`, { message: 'Hola' });
    const stored = await server.get(`/api/conversations/${conversation._id}`);
    expect(stored.body.tenant).toBe(tenant._id);
    const contact = await server.get(`/api/contacts/${conversation.contact._id}`);
    expect(contact.body.tenant).toBe(tenant._id);
    expect((await traceOf(answered.body.chats[1].id)).tenant).toBe(tenant._id);
    // The same email in another tenant is another contact.
    const other = await start(bot._id, 'Luis', 'luis@acme.test');
    expect(other.contact._id).not.toBe(conversation.contact._id);
  });
});

