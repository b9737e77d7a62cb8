import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { withOtherConnection } from './helpers/test-database.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';
import { completion, json, fakeLlmEnvironment, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';
import { EmailCodes, EMAIL_CODE_LIFETIME_MS } from '../../server/chat/email-codes.ts';

/**
 * Contacts stay private until the visitor proves the e-mail (issue 20 items 3 and 4): a known
 * e-mail without proof reveals nothing; wrong, expired and reused codes are refused with a limit
 * on attempts; the right code joins the contact and resumes its last conversation, whose memory
 * then reaches the prompt; a browser's signed token resumes its conversation.
 */
let fake: FakeOpenAiServer;
let server: TestServer;
let visitor: Visitor;
let botId: string;
let otherBotId: string;
let owner: { _id: string };

const EMAIL = 'duena@example.com';
const OWNER_NAME = 'Dueña Verdadera';
const SECRET = 'PIN-7788-ZZ';
/** Known here so the expired-code test can write a code as the server would. */
const JWT_SECRET = 'chat-verification-test-secret-0123456789abcdef';

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  server = await startTestServer({
    identity: { jwtSecret: JWT_SECRET },
    env: fakeLlmEnvironment(fake),
  });
  visitor = anonymous(server.baseUrl);
  botId = (await create(server, '/api/bots', minimalBot('Verificado')))._id;
  otherBotId = (await create(server, '/api/bots', minimalBot('Otro')))._id;
  // A contact made in the console (verified empty) with memory: the e-mail's owner.
  owner = await create(server, '/api/contacts', { name: OWNER_NAME, email: EMAIL, memory: [{ attribute: 'pin', content: SECRET }] });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.handle((_req, res) => json(res, 200, completion('De acuerdo.')));
});

async function start(name: string, email: string, bot = botId) {
  const res = await visitor.post('/api/chat/start', { name, email, botId: bot });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The code of the newest e-mail to `to` in the outbox (no SMTP configured). */
function codeSentTo(to: string): string {
  const dir = path.join(server.dataDir, 'outbox');
  const mails = fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).filter((m) => m.includes(`To: ${to}`));
  const code = /: (\d{6})\r?\n/.exec(mails.at(-1) ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

const askCode = (conversationId: string) => visitor.post(`/api/chat/verify/${conversationId}/code`, {});
const verify = (conversationId: string, code: string) => visitor.post(`/api/chat/verify/${conversationId}`, { code });
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('a known e-mail without proof', () => {
  it('reveals nothing: the start, the code request and the chat look the same as for an unknown e-mail', async () => {
    const known = await start('Intrusa', EMAIL);
    const unknown = await start('Intrusa', 'nadie@example.com');
    for (const answer of [known, unknown]) {
      expect(answer.contact.name).toBe('Intrusa');
      expect(JSON.stringify(answer)).not.toContain(OWNER_NAME);
    }
    const [a, b] = [await askCode(known._id), await askCode(unknown._id)];
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body).toEqual({ sent: true, expiresInSeconds: EMAIL_CODE_LIFETIME_MS / 1000 });
    const said = await visitor.post(`/api/chat/message/${known._id}`, { message: '¿Cuál es mi PIN?' });
    expect(said.text).not.toContain(SECRET);
    expect(JSON.stringify(fake.requests[0].body)).not.toContain(SECRET);
    // The new contact is marked unverified for the administrator.
    const contact = await server.get(`/api/contacts/${known.contact._id}`);
    expect(contact.body.verified).toBe(false);
  });

  it('wrong codes are refused, counted, and after 5 the code is dead even when right', async () => {
    const conversation = await start('Intrusa', EMAIL);
    expect((await askCode(conversation._id)).status).toBe(200);
    const right = codeSentTo(EMAIL);
    const first = await verify(conversation._id, wrongCode(right));
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ i18nMessage: 'chat.verify.wrong', i18nParams: { count: 4 }, inputErrors: [{ field: 'code', reason: 'chat.verify.wrong' }] });
    for (let i = 0; i < 4; i++) await verify(conversation._id, wrongCode(right));
    const locked = await verify(conversation._id, right);
    expect(locked.status).toBe(400);
    expect(locked.body.i18nMessage).toBe('chat.verify.locked');
    // Still nothing of the owner.
    const read = await visitor.get(`/api/chat/conversation/${conversation._id}`);
    expect(read.text).not.toContain(OWNER_NAME);
  });

  it('malformed codes are a 400 naming the format; asking again at once is a 429', async () => {
    const conversation = await start('Intrusa', EMAIL);
    for (const code of ['12345', 'abcdef', '1234567', '']) {
      const res = await verify(conversation._id, code);
      expect(res.status, code).toBe(400);
      expect(res.body.inputErrors).toEqual([{ field: 'code', reason: 'chat.verify.codeFormat' }]);
    }
    const none = await verify(conversation._id, '123456');
    expect(none.body.i18nMessage).toBe('chat.verify.none');
    expect((await askCode(conversation._id)).status).toBe(200);
    const again = await askCode(conversation._id);
    expect(again.status).toBe(429);
    expect(again.body.i18nMessage).toBe('chat.verify.wait');
  });

  it('an expired code is refused', async () => {
    const conversation = await start('Intrusa', EMAIL);
    const code = await withOtherConnection(server.dataDir, async (db) => {
      return new EmailCodes(db, JWT_SECRET).issue(conversation._id, EMAIL, Date.now() - EMAIL_CODE_LIFETIME_MS - 1000);
    });
    const res = await verify(conversation._id, code);
    expect(res.status).toBe(400);
    expect(res.body.i18nMessage).toBe('chat.verify.expired');
  });
});

describe('with the code', () => {
  it('joins the owner, resumes the owner\'s last conversation, brings its memory to the prompt; the code cannot be reused', async () => {
    // The owner's earlier conversation with this bot, proven once.
    const earlier = await start(OWNER_NAME, EMAIL);
    await visitor.post(`/api/chat/message/${earlier._id}`, { message: 'Mi pedido no llega' });
    await askCode(earlier._id);
    const joined = await verify(earlier._id, codeSentTo(EMAIL));
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body._id).toBe(earlier._id);
    expect(joined.body.contact).toEqual({ _id: owner._id, name: OWNER_NAME });

    // Later, a new browser: a new empty conversation, then the code.
    const fresh = await start('Dueña', EMAIL);
    expect(fresh.contact._id).not.toBe(owner._id);
    await askCode(fresh._id);
    const code = codeSentTo(EMAIL);
    const resumed = await verify(fresh._id, code);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body._id).toBe(earlier._id);
    expect(resumed.body.chats.map((c: any) => c.message)).toContain('Mi pedido no llega');
    expect(resumed.body.token).toMatch(/^v1\./);
    // The empty conversation and its throwaway contact are gone.
    expect((await visitor.get(`/api/chat/conversation/${fresh._id}`)).status).toBe(404);
    expect((await server.get(`/api/contacts/${fresh.contact._id}`)).status).toBe(404);

    const reused = await verify(fresh._id, code);
    expect(reused.status).toBe(404);

    fake.requests.length = 0;
    await visitor.post(`/api/chat/message/${resumed.body._id}`, { message: '¿Recuerdas mi PIN?' });
    expect(JSON.stringify(fake.requests[0].body)).toContain(SECRET);
  });

  it('a conversation that already has messages moves to the owner; a code is single use', async () => {
    const busy = await start('Dueña', EMAIL);
    await visitor.post(`/api/chat/message/${busy._id}`, { message: 'Hola' });
    await askCode(busy._id);
    const code = codeSentTo(EMAIL);
    const res = await verify(busy._id, code);
    expect(res.status, res.text).toBe(200);
    expect(res.body._id).toBe(busy._id);
    expect(res.body.contact._id).toBe(owner._id);
    const reused = await verify(busy._id, code);
    expect(reused.status).toBe(400);
    expect(reused.body.i18nMessage).toBe('chat.verify.none');
    const mine = await server.get(`/api/conversations/find${qs({ filters: `contact;eq;${owner._id}` })}`);
    expect(mine.body.map((c: any) => c._id)).toContain(busy._id);
  });

  it('an e-mail nobody owns yet makes the visitor\'s own contact the verified one', async () => {
    const conversation = await start('Nueva', 'nueva@example.com');
    await askCode(conversation._id);
    const res = await verify(conversation._id, codeSentTo('nueva@example.com'));
    expect(res.status, res.text).toBe(200);
    expect(res.body._id).toBe(conversation._id);
    expect((await server.get(`/api/contacts/${conversation.contact._id}`)).body.verified).toBe(true);
  });
});

describe('returning visitors by token', () => {
  it('resume their conversation with the token from start, only for that bot', async () => {
    const started = await start('Vuelve', 'vuelve@example.com');
    await visitor.post(`/api/chat/message/${started._id}`, { message: 'Hola' });
    const resumed = await visitor.post('/api/chat/resume', { botId, token: started.token });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body._id).toBe(started._id);
    expect(resumed.body.chats).toHaveLength(2);

    for (const body of [
      { botId: otherBotId, token: started.token },
      { botId, token: `${started.token}x` },
      { botId, token: `v1.${started._id}.forged` },
      { botId, token: 42 },
      { botId },
    ]) {
      const res = await visitor.post('/api/chat/resume', body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.i18nMessage).toBe('chat.error.resumeInvalid');
    }
  });
});
