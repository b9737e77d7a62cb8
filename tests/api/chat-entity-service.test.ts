// Issue 17: the chat reads and writes bots, contacts, conversations and traces through the entity
// service (server/chat/chat-store.ts), so what a visitor creates gets the manifest's validation and
// defaults and runs the entities' hooks, like a write from the console. Both databases
// (--project api-postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatStore } from '../../server/chat/chat-store.ts';
import { HttpError } from '../../server/http/http-error.ts';
import { system } from '../../server/entities/system-context.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';

let server: TestServer;
let visitor: Visitor;
let store: ChatStore;
let bot: any;
const created: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { CHAT_RATE_START_PER_MINUTE: '1000', CHAT_RATE_MESSAGE_PER_MINUTE: '1000' } });
  visitor = anonymous(server.baseUrl);
  const { service } = server.forja;
  store = new ChatStore(server.forja.database, service);
  for (const entity of ['contact', 'conversation', 'bottrace']) {
    service.hooks.add(entity, {
      afterChange: (event) => {
        if (event.operation === 'create') created.push(entity);
      },
    });
  }
  bot = await create(server, '/api/bots', minimalBot('Ayuda'));
});
afterAll(async () => server.close());

describe('the chat writes through the entity service', () => {
  it('a chat start and a message run the contact, conversation and trace hooks, and the contact is stored unverified', async () => {
    created.length = 0;
    const start = await visitor.post('/api/chat/start', { name: 'Lucía Pérez', email: 'lucia@example.com', botId: bot._id });
    expect(start.status, start.text).toBe(201);
    expect(created).toEqual(['contact', 'conversation']);
    const message = await visitor.post(`/api/chat/message/${start.body._id}`, { message: '¿Hola?' }, { authorization: `Bearer ${start.body.token}` });
    expect(message.status, message.text).toBe(200);
    expect(created).toEqual(['contact', 'conversation', 'bottrace']);
    const contact = await server.forja.service.findById('contact', system(), start.body.contact._id);
    expect(contact).toMatchObject({ name: 'Lucía Pérez', email: 'lucia@example.com', verified: false });
    // The conversation keeps its unguessable random id (a system()-only create option).
    expect(start.body._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a too-long name from a visitor is refused with the clear error, and no contact is left', async () => {
    const name = 'N'.repeat(121);
    const res = await visitor.post('/api/chat/start', { name, email: 'long@example.com', botId: bot._id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Validation failed', i18nMessage: 'error.validation', inputErrors: [{ field: 'name', reason: 'validation.maxLength' }] });
    const left = await server.forja.service.find('contact', system(), {
      limit: 1, offset: 0, orderBy: null, order: 'asc', search: null,
      filters: [{ column: 'email', operator: 'eq', value: 'long@example.com', list: false }],
    });
    expect(left).toEqual([]);
  });

  it('the store itself applies the contact manifest: a name over maxLength or a bad e-mail is a 400 naming the field', async () => {
    const refused = async (name: string, email: string) => {
      const error = await store.newContact(null, name, email).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      return { status: (error as HttpError).statusCode, inputErrors: (error as HttpError).inputErrors };
    };
    expect(await refused('N'.repeat(121), 'ok@example.com')).toEqual({ status: 400, inputErrors: [{ field: 'name', reason: 'validation.maxLength' }] });
    expect(await refused('Ana', 'not-an-email')).toEqual({ status: 400, inputErrors: [{ field: 'email', reason: 'validation.invalidEmail' }] });
  });

  it('a reaction updates the chat and its trace through the service', async () => {
    const start = await visitor.post('/api/chat/start', { name: 'Pablo', email: 'pablo@example.com', botId: bot._id });
    const auth = { authorization: `Bearer ${start.body.token}` };
    const answered = await visitor.post(`/api/chat/message/${start.body._id}`, { message: 'Una pregunta' }, auth);
    const assistant = answered.body.chats.find((chat: any) => chat.role === 'assistant');
    const liked = await visitor.post(`/api/chat/reaction/${start.body._id}`, { chatId: assistant.id, reaction: 'Helpful' }, auth);
    expect(liked.status, liked.text).toBe(200);
    const [trace] = await server.forja.service.find('bottrace', system(), {
      limit: 1, offset: 0, orderBy: null, order: 'asc', search: null,
      filters: [{ column: 'chatId', operator: 'eq', value: assistant.id, list: false }],
    }, { populate: false });
    expect(trace.reaction).toBe('Helpful');
    expect(trace.conversation).toBe(start.body._id);
  });
});
