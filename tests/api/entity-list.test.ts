import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalBot, traceFixtures } from './helpers/fixtures.ts';
import { nextMillisecond } from './helpers/until.ts';
import { anonymous } from './chat-visitor.ts';

let server: TestServer;
let ids: { ok: any; failed: any; bot: any; otherBot: any };
/** chatId -> created trace, seeded once for every list test. */
const traces: Record<string, any> = {};

beforeAll(async () => {
  server = await startTestServer();
  const base = await traceFixtures(server);
  const otherBot = await create(server, '/api/bots', minimalBot('Other'));
  ids = { ...base, otherBot };
  const rows = [
    { chatId: 'c1', status: base.ok._id, bot: base.bot._id, reaction: 'Love', tokens: 10, latency: 100, provider: 'openai', userMessage: 'Hello WORLD' },
    { chatId: 'c2', status: base.failed._id, bot: base.bot._id, reaction: 'Crap', tokens: 20, latency: 200, provider: 'ollama', userMessage: 'help me' },
    { chatId: 'c3', status: base.ok._id, bot: otherBot._id, reaction: null, tokens: 30, latency: 300, provider: 'openai', assistantMessage: 'hello there' },
    { chatId: 'c4', status: base.ok._id, bot: otherBot._id, reaction: 'Helpful', tokens: 40, latency: 400, provider: null, userMessage: 'bye' },
    { chatId: 'c5', status: base.failed._id, bot: base.bot._id, reaction: 'Love', tokens: 50, latency: 500, provider: 'offline', userMessage: '50% off_sale' },
    { chatId: 'c6', status: base.ok._id, bot: base.bot._id, reaction: 'Unclear', tokens: 60, latency: 600, provider: 'openai' },
  ];
  for (const row of rows) traces[row.chatId] = await create(server, '/api/bot-traces', row);
});
afterAll(async () => server.close());

const chatIds = (body: any[]) => body.map((r) => r.chatId);
const list = (params: Record<string, string | number | undefined>) => server.get(`/api/bot-traces${qs(params)}`);

describe('paginate', () => {
  it('defaults to page 1, limit 5, the manifest sort (traces newest first) and returns the total', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    expect(chatIds(res.body.items)).toEqual(['c6', 'c5', 'c4', 'c3', 'c2']);
    // find and GraphQL-shaped reads share the parser: same default.
    expect(chatIds((await server.get('/api/bot-traces/find')).body)).toEqual(['c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
    // order alone turns the default field around; an explicit orderBy replaces it.
    expect(chatIds((await list({ order: 'asc', limit: 10 })).body.items)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(chatIds((await list({ orderBy: '_id', limit: 10 })).body.items)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
  });

  it('pages with a stable total', async () => {
    const p1 = await list({ page: 1, limit: 4, orderBy: 'tokens' });
    const p2 = await list({ page: 2, limit: 4, orderBy: 'tokens' });
    const p3 = await list({ page: 3, limit: 4, orderBy: 'tokens' });
    expect(chatIds(p1.body.items)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(chatIds(p2.body.items)).toEqual(['c5', 'c6']);
    expect(p3.body).toEqual({ items: [], total: 6 });
    expect(p1.body.total).toBe(6);
    expect(p2.body.total).toBe(6);
  });

  it('populates refs of every item (status, bot) and leaves an empty ref null', async () => {
    const res = await list({ filters: 'chatId;eq;c3' });
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({
      status: { _id: ids.ok._id, name: 'ok' },
      bot: { _id: ids.otherBot._id, name: 'Other' },
      conversation: null,
      reaction: null,
      knowledgeBase: [],
    });
  });

  it('sorts both ways on numbers and strings', async () => {
    expect(chatIds((await list({ orderBy: 'latency', order: 'desc', limit: 10 })).body.items)).toEqual(['c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
    expect(chatIds((await list({ orderBy: 'latency', order: 'asc', limit: 10 })).body.items)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    // provider: nulls first ascending (SQL NULL sorts low); ties broken by _id in the same order.
    expect(chatIds((await list({ orderBy: 'provider', order: 'asc', limit: 10 })).body.items)).toEqual(['c4', 'c5', 'c2', 'c1', 'c3', 'c6']);
    expect(chatIds((await list({ orderBy: 'provider', order: 'desc', limit: 10 })).body.items)).toEqual(['c6', 'c3', 'c1', 'c2', 'c5', 'c4']);
  });

  it('search matches userMessage or assistantMessage, case-insensitively, with totals', async () => {
    const res = await list({ search: 'hello' });
    expect(chatIds(res.body.items)).toEqual(['c3', 'c1']);
    expect(res.body.total).toBe(2);
    expect(chatIds((await list({ search: '50%' })).body.items)).toEqual(['c5']);
    expect(chatIds((await list({ search: 'f_s' })).body.items)).toEqual(['c5']);
    expect((await list({ search: 'f%s' })).body.total).toBe(0);
  });

  it('combines search, filters, order and paging', async () => {
    const res = await list({ search: 'e', filters: `bot;eq;${ids.bot._id}`, orderBy: 'tokens', order: 'desc', limit: 2 });
    // userMessage/assistantMessage containing "e": c1 (Hello), c2 (help me), c5 (sale); c4 is the other bot.
    expect(res.body.total).toBe(3);
    expect(chatIds(res.body.items)).toEqual(['c5', 'c2']);
  });
});

describe('filter operators', () => {
  const cases: [string, string, string[]][] = [
    ['eq on a ref', `status;eq;STATUS_OK`, ['c1', 'c3', 'c4', 'c6']],
    ['eq on an enum', 'reaction;eq;Love', ['c1', 'c5']],
    ['ne keeps empty values', 'reaction;ne;Love', ['c2', 'c3', 'c4', 'c6']],
    ['in', 'reaction;in;Love,Crap', ['c1', 'c2', 'c5']],
    ['nin keeps empty values', 'reaction;nin;Love,Crap', ['c3', 'c4', 'c6']],
    ['like (contains, case-insensitive)', 'provider;like;OPEN', ['c1', 'c3', 'c6']],
    ['gt on a date', 'createdAt;gt;1970-01-01T00:00:00.000Z', ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']],
    ['lt on a date', 'createdAt;lt;1970-01-01', []],
    ['two filters are ANDed', 'provider;eq;openai|status;eq;STATUS_OK', ['c1', 'c3', 'c6']],
    ['eq on _id', 'chatId;in;c2,c4', ['c2', 'c4']],
  ];
  for (const [name, filters, expected] of cases) {
    it(name, async () => {
      const res = await list({ filters: filters.replace(/STATUS_OK/g, ids.ok._id), limit: 10, orderBy: '_id' });
      expect(res.status).toBe(200);
      expect(chatIds(res.body.items)).toEqual(expected);
      expect(res.body.total).toBe(expected.length);
    });
  }

  it('gt, gte, lt, lte on dates bound by a record timestamp', async () => {
    const at = traces.c3.createdAt;
    const got = async (op: string) => chatIds((await list({ filters: `createdAt;${op};${at}`, limit: 10, orderBy: '_id' })).body.items);
    const before = ['c1', 'c2', 'c3'].filter((c) => traces[c].createdAt < at);
    const after = ['c4', 'c5', 'c6'].filter((c) => traces[c].createdAt > at);
    const equal = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].filter((c) => traces[c].createdAt === at);
    expect(await got('gt')).toEqual(after);
    expect(await got('gte')).toEqual([...equal, ...after].sort());
    expect(await got('lt')).toEqual(before);
    expect(await got('lte')).toEqual([...before, ...equal].sort());
  });

  it('filters on a list field (array.ref) mean "contains"', async () => {
    const s1 = await create(server, '/api/knowledge-sources', { name: 'F1', type: 'chunk' });
    const s2 = await create(server, '/api/knowledge-sources', { name: 'F2', type: 'chunk' });
    await create(server, '/api/knowledge', { name: 'KA', toolDescription: 't', sources: [s1._id] });
    await create(server, '/api/knowledge', { name: 'KB', toolDescription: 't', sources: [s1._id, s2._id] });
    await create(server, '/api/knowledge', { name: 'KC', toolDescription: 't' });
    const names = async (filters: string) => (await server.get(`/api/knowledge${qs({ filters, orderBy: 'name' })}`)).body.items.map((r: any) => r.name);
    expect(await names(`sources;eq;${s2._id}`)).toEqual(['KB']);
    expect(await names(`sources;in;${s1._id},${s2._id}`)).toEqual(['KA', 'KB']);
    expect(await names(`sources;ne;${s2._id}`)).toEqual(['KA', 'KC']);
    expect(await names(`sources;nin;${s1._id}`)).toEqual(['KC']);
  });

  it('coerces booleans (role.readonly) and rejects non-boolean values', async () => {
    const res = await server.get(`/api/roles${qs({ filters: 'readonly;eq;false' })}`);
    expect(res.status).toBe(200);
    const bad = await server.get(`/api/roles${qs({ filters: 'readonly;eq;maybe' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('readonly;eq;maybe');
  });
});

describe('bad list queries are 400s naming the problem', () => {
  const bad: [string, Record<string, string | number>, RegExp][] = [
    ['unknown filter field', { filters: 'userMessage;eq;x' }, /Unknown filter field "userMessage"/],
    ['unknown operator', { filters: 'reaction;regex;x' }, /Unknown filter operator "regex"/],
    ['malformed filter', { filters: 'reaction=Love' }, /Malformed filter "reaction=Love"/],
    ['malformed second filter', { filters: 'reaction;eq;Love|chatId' }, /Malformed filter "chatId"/],
    ['enum value outside the list', { filters: 'reaction;eq;Meh' }, /"Meh" is not one of/],
    ['bad date', { filters: 'createdAt;gt;yesterday' }, /not an ISO date/],
    ['like on a ref', { filters: 'status;like;x' }, /like applies only to text/],
    ['in without values', { filters: 'reaction;in;,' }, /needs at least one value/],
    ['unsortable field', { orderBy: 'userMessage' }, /Cannot sort bottrace by "userMessage"/],
    ['bad order', { orderBy: 'tokens', order: 'up' }, /order must be asc or desc/],
    ['limit over 10000', { limit: 10001 }, /limit must be at most 10000/],
    ['limit zero', { limit: 0 }, /limit must be an integer >= 1/],
    ['page zero', { page: 0 }, /page must be an integer >= 1/],
    ['non-numeric page', { page: 'two' }, /page must be an integer/],
  ];
  for (const [name, params, message] of bad) {
    it(name, async () => {
      const res = await list(params);
      expect(res.status).toBe(400);
      expectErrorShape(res.body);
      expect(res.body.message).toMatch(message);
    });
  }

  it('find also caps limit at 10000 and filters numbers strictly', async () => {
    expect((await server.get('/api/bot-traces/find?limit=10001')).status).toBe(400);
    expect((await server.get('/api/bot-traces/find?limit=10000')).status).toBe(200);
    const res = await server.get(`/api/bot-traces/find${qs({ filters: 'provider;eq;openai', orderBy: 'tokens', order: 'desc' })}`);
    expect(chatIds(res.body)).toEqual(['c6', 'c3', 'c1']);
  });

  it('a repeated parameter is ambiguous: 400', async () => {
    const res = await server.get('/api/bot-traces?limit=1&limit=2');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/"limit" was given more than once/);
  });
});

// Last: the chat message it sends adds a trace the trace tests above do not expect.
describe('conversations: by last update, never by id', () => {
  it('lists the conversation with the latest message first, with or without a search', async () => {
    const bot = await create(server, '/api/bots', minimalBot('Conversational'));
    const start = async (name: string, email: string) => {
      const res = await anonymous(server.baseUrl).post('/api/chat/start', { name, email, botId: bot._id });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const older = await start('Ana Uno', 'ana1@example.com');
    const newer = await start('Ana Dos', 'ana2@example.com');
    // A message in the older conversation makes it the most recently updated.
    await nextMillisecond();
    const answered = await anonymous(server.baseUrl).post(`/api/chat/message/${older._id}`, { message: 'Hola' });
    expect(answered.status, answered.text).toBe(200);
    const ids = (items: any[]) => items.map((item) => item._id).filter((id) => id === older._id || id === newer._id);
    const page = await server.get(`/api/conversations${qs({ filters: `bot;eq;${bot._id}` })}`);
    expect(ids(page.body.items)).toEqual([older._id, newer._id]);
    // The same as asking for the last update explicitly (conversation ids are random, so id order means nothing).
    expect(ids((await server.get(`/api/conversations${qs({ filters: `bot;eq;${bot._id}`, orderBy: 'updatedAt', order: 'desc' })}`)).body.items)).toEqual([older._id, newer._id]);
    expect(ids((await server.get(`/api/conversations/find${qs({ filters: `bot;eq;${bot._id}` })}`)).body)).toEqual([older._id, newer._id]);
  });
});
