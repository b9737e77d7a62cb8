import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, traceFixtures, userWith } from './helpers/fixtures.ts';
import es from '../../locales/es.json';
import en from '../../locales/en.json';

/** The export's locale option: a CSV for people (header labels, enum words, seconds), the plain one unchanged. */
let server: TestServer;
let fx: Awaited<ReturnType<typeof traceFixtures>>;
beforeAll(async () => {
  server = await startTestServer();
  fx = await traceFixtures(server);
  await create(server, '/api/bot-traces', { status: fx.ok._id, bot: fx.bot._id, chatId: 'l1', userMessage: '=SUM(A1)', reaction: 'Helpful', latency: 1234, tokens: 9 });
  await create(server, '/api/bot-traces', { status: fx.ok._id, bot: fx.bot._id, chatId: 'l2', userMessage: 'sin reacción' });
});
afterAll(async () => server.close());

async function csv(query: Record<string, string>, client = server): Promise<Record<string, string>[]> {
  const res = await client.get(`/api/bot-traces/export${qs({ format: 'CSV', orderBy: 'latency', order: 'desc', headers: 'chatId,status,userMessage,reaction,latency,tokens,createdAt', ...query })}`);
  expect(res.status, res.text).toBe(200);
  const file = await fetch(server.baseUrl + res.body.url);
  expect(file.status).toBe(200);
  return parse(await file.text(), { bom: true, delimiter: query.separator ?? ';', columns: true }) as Record<string, string>[];
}

describe('export locale option', () => {
  it('locale=es: the table\'s header labels, reactions in Spanish, latency in seconds with a decimal comma; ISO dates and guarded formulas kept', async () => {
    const rows = await csv({ locale: 'es' });
    expect(Object.keys(rows[0])).toEqual([es.field.bottrace.chatId, es.field.bottrace.status, es.field.bottrace.userMessage, es.field.bottrace.reaction, es.field.bottrace.latency, es.field.bottrace.tokens, es.common.createdAt]);
    const [first, second] = rows;
    expect(first[es.field.bottrace.reaction]).toBe('Útil');
    expect(first[es.field.bottrace.latency]).toBe('1,23');
    expect(first[es.field.bottrace.tokens]).toBe('9');
    expect(first[es.field.bottrace.status]).toBe('ok');
    expect(first[es.field.bottrace.userMessage]).toBe("'=SUM(A1)");
    expect(first[es.common.createdAt]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect([second[es.field.bottrace.reaction], second[es.field.bottrace.latency]]).toEqual(['', '']);
  });

  it('locale=en (and a region such as en-GB): English labels, the reaction\'s English label, a decimal point', async () => {
    for (const locale of ['en', 'en-GB']) {
      const [first] = await csv({ locale, separator: ',' });
      expect(first[en.field.bottrace.reaction]).toBe(en.enum.Reaction.Helpful);
      expect(first[en.field.bottrace.latency]).toBe('1.23');
      expect(first[en.common.createdAt]).toBeDefined();
    }
  });

  it('without locale the CSV keeps field names and stored values (what imports read back)', async () => {
    const [first] = await csv({});
    expect(first).toMatchObject({ chatId: 'l1', reaction: 'Helpful', latency: '1234', tokens: '9' });
  });

  it('refuses an unknown locale with a message naming the choices; a view-only role may ask for it too', async () => {
    const res = await server.get(`/api/bot-traces/export${qs({ format: 'CSV', locale: 'xx' })}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/locale must be one of es, en/);
    const viewer = await userWith(server, ['bottrace:view']);
    const [first] = await csv({ locale: 'es' }, viewer.client as unknown as TestServer);
    expect(first[es.field.bottrace.reaction]).toBe('Útil');
  });
});
