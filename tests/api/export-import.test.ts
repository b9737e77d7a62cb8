import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, traceFixtures } from './helpers/fixtures.ts';
import { withOtherConnection } from './helpers/test-database.ts';

let server: TestServer;
let fx: Awaited<ReturnType<typeof traceFixtures>>;
beforeAll(async () => {
  server = await startTestServer();
  fx = await traceFixtures(server);
  await create(server, '/api/bot-traces', {
    status: fx.ok._id, bot: fx.bot._id, chatId: 'e1', userMessage: 'He said "hi";\nthen left', tokens: 7, latency: 1200,
    knowledgeBase: [{ source: 's', hash: 'h', content: 'c' }],
  });
  await create(server, '/api/bot-traces', { status: fx.failed._id, bot: fx.bot._id, chatId: 'e2', userMessage: 'plain', reaction: 'Love' });
  await create(server, '/api/bot-traces', { status: fx.ok._id, bot: fx.bot._id, chatId: 'e3', userMessage: 'third' });
});
afterAll(async () => server.close());

async function download(url: string): Promise<string> {
  const res = await fetch(server.baseUrl + url);
  expect(res.status).toBe(200);
  // Keep the BOM (response.text() would drop it) to check it is there.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
}

describe('export', () => {
  it('CSV honours headers, separator, order, filters; refs show their display value; RFC 4180 quoting', async () => {
    const res = await server.get(`/api/bot-traces/export${qs({
      format: 'CSV', headers: 'chatId,status,bot,userMessage,tokens,knowledgeBase,reaction', separator: ';',
      orderBy: 'tokens', order: 'desc', filters: 'chatId;in;e1,e2',
    })}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rowCount: 2, time: expect.any(Number), expiresAt: expect.any(String) });
    // A link signed for the exporting user (export-security.test.ts tries to get around it).
    expect(res.body.url).toMatch(/^\/files\/exports\/bottrace-[0-9a-f]{16}-[0-9a-f]{32}\.csv\?expires=\d+&user=[^&]+&signature=[\w-]+$/);
    const text = await download(res.body.url);
    expect(text.startsWith('\ufeffchatId;status;bot;userMessage;tokens;knowledgeBase;reaction\r\n')).toBe(true);
    // The quoted cell with a quote, a separator and a newline, exactly as RFC 4180 wants it.
    expect(text).toContain('e1;ok;Traced;"He said ""hi"";\nthen left";7;"[{""source"":""s"",""hash"":""h"",""content"":""c""}]";\r\n');
    const rows = parse(text, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      { chatId: 'e1', status: 'ok', bot: 'Traced', userMessage: 'He said "hi";\nthen left', tokens: '7', knowledgeBase: '[{"source":"s","hash":"h","content":"c"}]', reaction: '' },
      { chatId: 'e2', status: 'failed', bot: 'Traced', userMessage: 'plain', tokens: '', knowledgeBase: '[]', reaction: 'Love' },
    ]);
  });

  it('CSV with the default headers of the model and a comma separator', async () => {
    const res = await server.get(`/api/bot-traces/export${qs({ format: 'csv', separator: ',', orderBy: '_id' })}`);
    const rows = parse(await download(res.body.url), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.chatId)).toEqual(['e1', 'e2', 'e3']);
    expect(Object.keys(rows[0])).toEqual(['createdAt', 'status', 'bot', 'conversation', 'chatId', 'userMessage', 'assistantMessage', 'reaction', 'knowledgeBaseQuery', 'knowledgeBase', 'provider', 'model', 'inputTokens', 'outputTokens', 'tokens', 'latency']);
    expect(rows[0].latency).toBe('1200');
  });

  it('JSON is one array; limit caps rows; refs are populated objects', async () => {
    const res = await server.get(`/api/bot-traces/export${qs({ headers: 'chatId,status', limit: 2, orderBy: '_id', order: 'desc' })}`);
    expect(res.body.rowCount).toBe(2);
    expect(res.body.url).toMatch(/\.json\?/);
    const data = JSON.parse(await download(res.body.url));
    expect(data).toEqual([
      { _id: expect.any(String), chatId: 'e3', status: { _id: fx.ok._id, name: 'ok' } },
      { _id: expect.any(String), chatId: 'e2', status: { _id: fx.failed._id, name: 'failed' } },
    ]);
  });

  it('an empty export is an empty array / a header-only CSV', async () => {
    const json = await server.get(`/api/bot-traces/export${qs({ filters: 'chatId;eq;none' })}`);
    expect(json.body.rowCount).toBe(0);
    expect(JSON.parse(await download(json.body.url))).toEqual([]);
    const csv = await server.get(`/api/bot-traces/export${qs({ format: 'CSV', headers: 'chatId', filters: 'chatId;eq;none' })}`);
    expect(await download(csv.body.url)).toBe('\ufeffchatId\r\n');
  });

  it('CSV array.refs list display values, gone targets drop out, booleans read true/false, any separator', async () => {
    const parent = await create(server, '/api/roles', { name: 'Parent]one' });
    const gone = await create(server, '/api/roles', { name: 'Gone' });
    const child = await create(server, '/api/roles', { name: 'Child', childRoles: [parent._id, gone._id], permissions: ['bot:view'] });
    // Deleting a role still referenced is refused now: the target goes behind the API's back.
    await withOtherConnection(server.dataDir, (db) => db.run(db.kysely.deleteFrom('roles').where('_id', '=', gone._id).compile()));
    // "]" and "^" mean something inside a regular-expression class: the quoting must not care.
    for (const separator of [']', '^', '\\']) {
      const res = await server.get(`/api/roles/export${qs({ format: 'CSV', headers: 'name,childRoles,readonly', separator, filters: `_id;in;${child._id},${parent._id}`, orderBy: 'createdAt', order: 'desc' })}`);
      expect(res.status, res.text).toBe(200);
      const rows = parse(await download(res.body.url), { bom: true, delimiter: separator, columns: true }) as Record<string, string>[];
      expect(rows).toEqual([
        { name: 'Child', childRoles: '["Parent]one"]', readonly: 'false' },
        { name: 'Parent]one', childRoles: '[]', readonly: 'false' },
      ]);
    }
    // A list never set (a column added later, a row written behind the API) is an empty list too.
    await withOtherConnection(server.dataDir, (db) =>
      db.run(db.kysely.updateTable('roles').set({ childRoles: null }).where('_id', '=', parent._id).compile()),
    );
    const csv = await server.get(`/api/roles/export${qs({ format: 'CSV', headers: 'name,childRoles', filters: `_id;eq;${parent._id}` })}`);
    const json = await server.get(`/api/roles/export${qs({ format: 'JSON', headers: 'name,childRoles', filters: `_id;eq;${parent._id}` })}`);
    expect(parse(await download(csv.body.url), { bom: true, delimiter: ';', columns: true })).toEqual([{ name: 'Parent]one', childRoles: '[]' }]);
    expect(JSON.parse(await download(json.body.url))).toEqual([{ _id: parent._id, name: 'Parent]one', childRoles: [] }]);
  });

  it('never exports secret fields and rejects unknown headers / formats / separators', async () => {
    const role = await create(server, '/api/roles', { name: 'Exp' });
    await create(server, '/api/users', { name: 'S', username: 'sx', password: 'hidden-password', email: 's@example.com', phone: '1', role: role._id });
    const csv = await server.get(`/api/users/export${qs({ format: 'CSV' })}`);
    const text = await download(csv.body.url);
    expect(text).not.toContain('hidden-password');
    expect(text.split('\r\n')[0]).toBe('\ufeffname;username;email;phone;role;tenant;active;createdAt;updatedAt');
    const secret = await server.get(`/api/users/export${qs({ format: 'CSV', headers: 'name,password' })}`);
    expect(secret.status).toBe(400);
    expect(secret.body.message).toMatch(/Unknown export header\(s\): password/);
    expect((await server.get(`/api/users/export${qs({ format: 'JSON' })}`)).status).toBe(400); // user exports CSV only
    expect((await server.get(`/api/bots/export${qs({ format: 'XML' })}`)).status).toBe(400);
    expect((await server.get(`/api/bots/export${qs({ separator: '""' })}`)).status).toBe(400);
  });
});

describe('import', () => {
  const csv = (lines: string[]) => lines.join('\r\n') + '\r\n';

  it('CSV happy path: every row validated then created, JSON cells and ref ids understood', async () => {
    const knowledge = await create(server, '/api/knowledge', { name: 'KI', toolDescription: 't' });
    const file = csv([
      'name;description;knowledge;questions',
      `Imported A;First;${knowledge._id};"[""q1"",""q2""]"`,
      'Imported B;Second;;',
    ]);
    const dry = await server.upload(`/api/bots/import?format=CSV&dryRun=true`, { name: 'bots.csv', content: file, type: 'text/csv' });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ dryRun: true, total: 2, valid: 2, invalid: 0, created: 0, errors: [] });
    expect((await server.get('/api/bots?search=Imported')).body.total).toBe(0);

    const real = await server.upload(`/api/bots/import?dryRun=false`, { name: 'bots.csv', content: file, type: 'text/csv' });
    expect(real.status).toBe(200);
    expect(real.body).toEqual({ dryRun: false, total: 2, valid: 2, invalid: 0, created: 2, errors: [] });
    const stored = (await server.get('/api/bots?search=Imported&orderBy=name')).body.items;
    expect(stored).toMatchObject([
      { name: 'Imported A', description: 'First', knowledge: { _id: knowledge._id, name: 'KI' }, questions: ['q1', 'q2'] },
      { name: 'Imported B', description: 'Second', knowledge: null, questions: [] },
    ]);
    expect(stored[0].systemPrompt).toContain('{{botName}}'); // defaults applied as on create
  });

  it('JSON import (format inferred from the file name) accepts populated refs', async () => {
    const rows = [
      { status: { _id: fx.ok._id, name: 'ok' }, bot: fx.bot._id, chatId: 'j1', tokens: 5, _id: 'ignored', createdAt: 'ignored' },
      { status: fx.failed._id, bot: { _id: fx.bot._id }, chatId: 'j2' },
    ];
    const res = await server.upload('/api/bot-traces/import', { name: 'traces.json', content: JSON.stringify(rows), type: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, created: 2, invalid: 0 });
    const stored = (await server.get(`/api/bot-traces/find${qs({ filters: 'chatId;in;j1,j2', orderBy: '_id' })}`)).body;
    expect(stored).toMatchObject([{ chatId: 'j1', tokens: 5, status: { name: 'ok' } }, { chatId: 'j2', status: { name: 'failed' } }]);
    expect(stored[0]._id).not.toBe('ignored');
  });

  it('one bad row rejects the whole import with the report, and nothing is written', async () => {
    const before = (await server.get('/api/bot-trace-statuses')).body.total;
    const file = csv(['name;description', 'new-one;x', ';missing name', 'ok;duplicate of a stored one', 'new-two;y', 'new-one;duplicate within the file']);
    const dry = await server.upload('/api/bot-trace-statuses/import?format=CSV&dryRun=true', { name: 's.csv', content: file });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({
      dryRun: true, total: 5, valid: 2, invalid: 3, created: 0,
      errors: [
        { row: 2, field: 'name', reason: 'validation.required' },
        { row: 3, field: 'name', reason: 'validation.unique' },
        { row: 5, field: 'name', reason: 'validation.unique' },
      ],
    });
    const real = await server.upload('/api/bot-trace-statuses/import?format=CSV', { name: 's.csv', content: file });
    expect(real.status).toBe(400);
    expect(real.body).toMatchObject({
      message: expect.stringMatching(/3 of 5 rows are invalid/),
      i18nMessage: 'error.validation',
      inputErrors: [
        { field: '2.name', reason: 'validation.required' },
        { field: '3.name', reason: 'validation.unique' },
        { field: '5.name', reason: 'validation.unique' },
      ],
      dryRun: false, total: 5, valid: 2, invalid: 3, created: 0,
    });
    expect((await server.get('/api/bot-trace-statuses')).body.total).toBe(before);
    expect((await server.get('/api/bot-trace-statuses/find-one?search=new-one')).status).toBe(404);
  });

  it('bad cells and bad files are reported, never a 500', async () => {
    const cells = await server.upload('/api/bot-traces/import?format=CSV&dryRun=true', {
      name: 't.csv', content: csv(['status;bot;tokens;knowledgeBase;colour', `${fx.ok._id};${fx.bot._id};many;[oops;red`]),
    });
    expect(cells.status).toBe(200);
    expect(cells.body.errors).toEqual([
      { row: 1, field: 'tokens', reason: 'validation.csv.number' },
      { row: 1, field: 'knowledgeBase', reason: 'validation.invalidJson' },
    ]);
    const unknownColumn = await server.upload('/api/bot-traces/import?format=CSV&dryRun=true', {
      name: 't.csv', content: csv(['status;bot;colour', `${fx.ok._id};${fx.bot._id};red`]),
    });
    expect(unknownColumn.body.errors).toEqual([{ row: 1, field: 'colour', reason: 'validation.unknownField' }]);
    const notJson = await server.upload('/api/bots/import', { name: 'x.json', content: '{not json' });
    expect(notJson.status).toBe(400);
    const notArray = await server.upload('/api/bots/import', { name: 'x.json', content: '{"name":"x"}' });
    expect(notArray.status).toBe(400);
    const unknownFormat = await server.upload('/api/bots/import', { name: 'x.xml', content: '<a/>' });
    expect(unknownFormat.status).toBe(400);
    const brokenCsv = await server.upload('/api/bots/import?format=CSV', { name: 'x.csv', content: 'name;description\n"unterminated;x\n' });
    expect(brokenCsv.status).toBe(400);
    const notMultipart = await server.post('/api/bots/import', [{ name: 'x' }]);
    expect(notMultipart.status).toBe(415);
    // Role is not importable: the path is /api/roles/:id, which takes no POST (405 with Allow, issue 31).
    const roleImport = await server.post('/api/roles/import', {});
    expect(roleImport.status).toBe(405);
    expect(roleImport.headers.get('allow')).not.toContain('POST');
  });
});
