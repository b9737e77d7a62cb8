import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalBot, userWith } from './helpers/fixtures.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';

/**
 * Issue 20: a visitor who gives a known e-mail without proof gets a new, unverified contact, which
 * an administrator merges later (POST /api/contacts/:id/merge { into }).
 */
let server: TestServer;
let visitor: Visitor;
let botId: string;

type Contact = { _id: string; name: string; email?: string; verified?: boolean; memory?: { attribute?: string; content?: string }[] };

const contactOf = (conversation: { contact: unknown }) =>
  typeof conversation.contact === 'object' && conversation.contact !== null ? (conversation.contact as { _id: string })._id : conversation.contact;

/** A chat started by a visitor: its new contact (unverified) and its conversation. */
async function visitorChat(name: string, email: string): Promise<{ contactId: string; conversationId: string }> {
  const started = await visitor.post('/api/chat/start', { name, email, botId });
  expect(started.status, started.text).toBe(201);
  const conversation = await server.get(`/api/conversations/${started.body._id}`);
  expect(conversation.status, conversation.text).toBe(200);
  return { contactId: String(contactOf(conversation.body)), conversationId: started.body._id };
}

async function snapshot(contactIds: string[]) {
  const contacts = await Promise.all(contactIds.map(async (id) => (await server.get(`/api/contacts/${id}`)).body));
  const conversations = (await server.get('/api/conversations?limit=100')).body.items.map((c: { _id: string; contact: unknown }) => [c._id, contactOf(c)]);
  return { contacts, conversations };
}

beforeAll(async () => {
  server = await startTestServer();
  visitor = anonymous(server.baseUrl);
  botId = (await create<{ _id: string }>(server, '/api/bots', minimalBot('Fusiones')))._id;
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/contacts/:id/merge', () => {
  it('moves the conversations, appends the memory without duplicates and deletes the source', async () => {
    const real = await create<Contact>(server, '/api/contacts', {
      name: 'Lucía Real', email: 'lucia@example.com', memory: [{ attribute: 'idioma', content: 'español' }],
    });
    const first = await visitorChat('Lucía', 'lucia@example.com');
    const second = await visitorChat('Lucía', 'lucia@example.com');
    expect(first.contactId).not.toBe(real._id);
    await server.put(`/api/contacts/${first.contactId}`, {
      memory: [{ attribute: 'idioma', content: 'español' }, { attribute: 'pedido', content: '42' }],
    });
    const merged = await server.post(`/api/contacts/${first.contactId}/merge`, { into: real._id });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({ into: real._id, movedConversations: 1, addedMemory: 1 });

    expect((await server.get(`/api/contacts/${first.contactId}`)).status).toBe(404);
    const target = (await server.get<Contact>(`/api/contacts/${real._id}`)).body;
    expect(target.memory).toEqual([{ attribute: 'idioma', content: 'español' }, { attribute: 'pedido', content: '42' }]);
    const moved = await server.get(`/api/conversations?filters=${encodeURIComponent(`contact;eq;${real._id}`)}&limit=100`);
    expect(moved.status, moved.text).toBe(200);
    const ids = moved.body.items.map((c: { _id: string }) => c._id);
    expect(ids).toContain(first.conversationId);
    expect(ids).not.toContain(second.conversationId);
    expect(contactOf((await server.get(`/api/conversations/${second.conversationId}`)).body)).toBe(second.contactId);
  });

  it('refuses a caller without contact delete or update (403) and changes nothing', async () => {
    const real = await create<Contact>(server, '/api/contacts', { name: 'Destino Permisos' });
    const chat = await visitorChat('Origen', 'permisos@example.com');
    const before = await snapshot([real._id, chat.contactId]);
    for (const permissions of [['contact:view', 'contact:update'], ['contact:view', 'contact:delete'], ['contact:view']]) {
      const { client } = await userWith(server, permissions);
      const refused = await client.post(`/api/contacts/${chat.contactId}/merge`, { into: real._id });
      expect(refused.status, `${permissions.join(',')}: ${refused.text}`).toBe(403);
      expectErrorShape(refused.body);
    }
    const { client } = await userWith(server, ['contact:view', 'contact:update', 'contact:delete']);
    expect(await snapshot([real._id, chat.contactId])).toEqual(before);
    const allowed = await client.post(`/api/contacts/${chat.contactId}/merge`, { into: real._id });
    expect(allowed.status, allowed.text).toBe(200);
  });

  it("answers 404 for another tenant's contact, as the generic routes do", async () => {
    const tenant = await create<{ _id: string }>(server, '/api/tenants', { name: 'Otra empresa' });
    const outsider = await userWith(server, ['contact:view', 'contact:create', 'contact:update', 'contact:delete'], { tenant: tenant._id });
    const theirs = (await outsider.client.post('/api/contacts', { name: 'De la otra empresa' })).body as Contact;
    const mine = await create<Contact>(server, '/api/contacts', { name: 'Del sistema' });
    const into = await outsider.client.post(`/api/contacts/${theirs._id}/merge`, { into: mine._id });
    expect(into.status, into.text).toBe(404);
    const from = await outsider.client.post(`/api/contacts/${mine._id}/merge`, { into: theirs._id });
    expect(from.status, from.text).toBe(404);
    expect((await server.get(`/api/contacts/${mine._id}`)).status).toBe(200);
    expect((await server.get(`/api/contacts/${theirs._id}`)).status).toBe(200);
  });

  it('refuses the same id, a missing "into" and unknown ids', async () => {
    const contact = await create<Contact>(server, '/api/contacts', { name: 'Solo Uno' });
    const same = await server.post(`/api/contacts/${contact._id}/merge`, { into: contact._id });
    expect(same.status).toBe(400);
    expect(same.body.inputErrors).toEqual([expect.objectContaining({ field: 'into' })]);
    for (const body of [{}, { into: '' }, { into: 7 }, undefined]) {
      const missing = await server.post(`/api/contacts/${contact._id}/merge`, body);
      expect(missing.status, JSON.stringify(body)).toBe(400);
      expect(missing.body.message).toContain('into');
      expect(missing.body.inputErrors).toEqual([{ field: 'into', reason: 'validation.required' }]);
    }
    expect((await server.post(`/api/contacts/${contact._id}/merge`, { into: 'no-such-contact' })).status).toBe(404);
    expect((await server.post('/api/contacts/no-such-contact/merge', { into: contact._id })).status).toBe(404);
    expect((await server.get(`/api/contacts/${contact._id}`)).status).toBe(200);
  });

  it('refuses a merge that would pass the memory limit and changes nothing', async () => {
    const entries = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ attribute: prefix, content: `${prefix} ${i}` }));
    const target = await create<Contact>(server, '/api/contacts', { name: 'Memoria Llena', memory: entries('a', 90) });
    const chat = await visitorChat('Memoria', 'memoria@example.com');
    const put = await server.put(`/api/contacts/${chat.contactId}`, { memory: entries('b', 20) });
    expect(put.status, put.text).toBe(200);
    const before = await snapshot([target._id, chat.contactId]);
    const refused = await server.post(`/api/contacts/${chat.contactId}/merge`, { into: target._id });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.inputErrors).toEqual([{ field: 'memory', reason: 'validation.maxItems' }]);
    expect(refused.body.message).toContain('100');
    expect(await snapshot([target._id, chat.contactId])).toEqual(before);
  });
});
