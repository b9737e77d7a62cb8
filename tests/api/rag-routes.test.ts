import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, qs, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalKnowledge } from './helpers/fixtures.ts';
import { until } from './helpers/until.ts';
import { completion, json, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'unit', 'rag', 'fixtures');

const ADMIN = { userId: 'rag-admin', tenantId: null, permissions: ['*'] };

let server: TestServer;
/** Started with RAG_ALLOW_PRIVATE_URLS=true: may fetch the loopback test site. */
let opened: TestServer;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  // Tests here are about RAG, not identity: every call runs as a signed-in platform administrator.
  server = await startTestServer({ resolveContext: () => ADMIN });
  opened = await startTestServer({ resolveContext: () => ADMIN, env: { RAG_ALLOW_PRIVATE_URLS: 'true' } });
  site = http.createServer((req, res) => {
    if (req.url === '/slow') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('página lenta'), 600);
    } else if (req.url === '/faq') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><nav>Menú</nav><h1>Preguntas frecuentes</h1><p>La garantía cubre dos años desde la compra.</p></body></html>');
    } else {
      res.writeHead(404).end('nope');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  await opened.close();
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

async function upload(name: string, content: Buffer | string, type?: string, target: TestServer = server) {
  const res = await target.upload('/api/file', { name, content, ...(type ? { type } : {}) });
  expect(res.status).toBe(201);
  return res.body as { filename: string; filepath: string; size: number; mimetype: string; url: string };
}

describe('POST /api/rag/parse-file', () => {
  it('reads an uploaded PDF, DOCX and HTML', async () => {
    const pdf = await upload('politica.pdf', fs.readFileSync(path.join(fixtures, 'sample.pdf')), 'application/pdf');
    const docx = await upload('manual.docx', fs.readFileSync(path.join(fixtures, 'sample.docx')));
    const html = await upload('pagina.html', '<html><head><title>t</title><script>x()</script></head><body><h1>Horario</h1><p>Abrimos de 9 a 18 h.</p></body></html>', 'text/html');

    const a = await server.post('/api/rag/parse-file', { filepath: pdf.filepath });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ content: 'Politica de devoluciones\nInformación útil: 30 días para devolver.' });
    const b = await server.post('/api/rag/parse-file', { filepath: docx.filepath });
    expect(b.body).toEqual({ content: 'Manual del cliente\n\nEl envío es gratuito desde 50 €.' });
    const c = await server.post('/api/rag/parse-file', { filepath: html.filepath });
    expect(c.status).toBe(200);
    expect(c.body.content).toContain('Horario');
    expect(c.body.content).toContain('Abrimos de 9 a 18 h.');
    expect(c.body.content).not.toContain('x()');
  });

  it('answers 4xx with the error shape for bad input, never a 500', async () => {
    const missing = await server.post('/api/rag/parse-file', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: expect.any(String), i18nMessage: 'error.rag.invalidInput', inputErrors: [{ field: 'filepath', reason: 'error.rag.invalidInput' }] });
    const notThere = await server.post('/api/rag/parse-file', { filepath: 'files/2020/01/nothing.pdf' });
    expect(notThere.status).toBe(404);
    expect(notThere.body.i18nMessage).toBe('error.rag.fileNotFound');
    // The database at the root of DATA_DIR and paths escaping it are never read.
    for (const filepath of ['forja.db', 'forja.db-wal', '../../etc/passwd', '/etc/passwd', 'files/../forja.db']) {
      const res = await server.post('/api/rag/parse-file', { filepath });
      expect(res.status, filepath).toBe(404);
      expectErrorShape(res.body);
    }
    const binary = await upload('blob.bin', Buffer.from([1, 0, 2, 0, 3, 0, 255]));
    const unsupported = await server.post('/api/rag/parse-file', { filepath: binary.filepath });
    expect(unsupported.status).toBe(415);
    const wrongType = await server.raw('/api/rag/parse-file', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'files/x' });
    expect(wrongType.status).toBe(415);
    const arrayBody = await server.post('/api/rag/parse-file', [1, 2]);
    expect(arrayBody.status).toBe(400);
  });
});

describe('POST /api/rag/parse-url', () => {
  it('refuses loopback addresses unless RAG_ALLOW_PRIVATE_URLS=true', async () => {
    const refused = await server.post('/api/rag/parse-url', { url: `${siteUrl}/faq` });
    expect(refused.status).toBe(400);
    expect(refused.body.i18nMessage).toBe('error.rag.urlRefused');
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'file:///etc/passwd', 'not a url', 42]) {
      const res = await server.post('/api/rag/parse-url', { url });
      expect(res.status, String(url)).toBeGreaterThanOrEqual(400);
      expect(res.status, String(url)).toBeLessThan(500);
    }

    // A server started with RAG_ALLOW_PRIVATE_URLS=true fetches it.
    const allowed = await opened.post('/api/rag/parse-url', { url: `${siteUrl}/faq` });
    expect(allowed.status).toBe(200);
    expect(allowed.body.content).toContain('La garantía cubre dos años desde la compra.');
    const notFound = await opened.post('/api/rag/parse-url', { url: `${siteUrl}/missing` });
    expect(notFound.status).toBe(400);
    expect(notFound.body.i18nMessage).toBe('error.rag.urlHttpStatus');
  });
});

describe('POST /api/rag/chunk', () => {
  it('splits with the given size and overlap, defaults 512/100', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `Frase número ${i} sobre envíos y devoluciones.`).join(' ');
    const res = await server.post('/api/rag/chunk', { text, chunkSize: 200, chunkOverlap: 40 });
    expect(res.status).toBe(200);
    expect(res.body.chunks.length).toBeGreaterThan(5);
    for (const chunk of res.body.chunks) {
      expect(chunk).toEqual({ content: expect.any(String), hash: expect.stringMatching(/^[0-9a-f]{64}$/), category: '', tags: [] });
      expect(chunk.content.length).toBeLessThanOrEqual(200);
    }
    const defaults = await server.post('/api/rag/chunk', { text });
    expect(defaults.body.chunks.every((c: { content: string }) => c.content.length <= 512)).toBe(true);
    expect(defaults.body.chunks.length).toBeLessThan(res.body.chunks.length);
  });

  it('names the field at fault', async () => {
    const bad = await server.post('/api/rag/chunk', { text: 'hola', chunkSize: 100, chunkOverlap: 100 });
    expect(bad.status).toBe(400);
    expect(bad.body.inputErrors).toEqual([{ field: 'chunkOverlap', reason: 'error.rag.invalidInput' }]);
    const noText = await server.post('/api/rag/chunk', { chunkSize: 300 });
    expect(noText.status).toBe(400);
    expect(noText.body.inputErrors[0].field).toBe('text');
    const stringSize = await server.post('/api/rag/chunk', { text: 'x', chunkSize: '100' });
    expect(stringSize.status).toBe(400);
  });
});

describe('POST /api/rag/improve', () => {
  let fake: FakeOpenAiServer;
  beforeAll(async () => {
    fake = await startFakeOpenAiServer();
  });
  afterAll(async () => {
    // Back to no model for the tests below (Settings win over the environment, server/config).
    await setSetting('llm.baseUrl', '');
    await setSetting('llm.model', '');
    await setSetting('llm.timeoutMs', 60000);
    await fake.close();
  });
  async function setSetting(key: string, value: unknown) {
    const res = await server.patch(`/api/settings/${key}`, { value });
    expect(res.status, res.text).toBe(200);
  }

  it('is a clear 409 when no language model is configured (no fake rewrite)', async () => {
    const res = await server.post('/api/rag/improve', { text: 'texto con faltas de ortografia' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'No language model is configured: set one in Settings to improve texts', i18nMessage: 'error.rag.noLlm' });
    const empty = await server.post('/api/rag/improve', { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.inputErrors[0].field).toBe('text');
  });

  it('rewrites through the configured OpenAI-compatible model', async () => {
    await setSetting('llm.baseUrl', fake.baseUrl);
    await setSetting('llm.model', 'fake-model');
    fake.handle((request, response) => json(response, 200, completion(`Texto mejorado: ${request.body.messages.at(-1).content.toUpperCase()}`)));
    const res = await server.post('/api/rag/improve', { text: 'el envio es gratis' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ content: 'Texto mejorado: EL ENVIO ES GRATIS' });
    const sent = fake.requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.body.model).toBe('fake-model');
    expect(sent.body.messages[0].role).toBe('system');
    expect(sent.body.messages[1]).toEqual({ role: 'user', content: 'el envio es gratis' });
  });

  it('reports an upstream failure as a gateway error, not a 500', async () => {
    await setSetting('llm.baseUrl', fake.baseUrl);
    await setSetting('llm.model', 'fake-model');
    await setSetting('llm.timeoutMs', 5000);
    fake.handle((_request, response) => json(response, 401, { error: { message: 'bad key' } }));
    const res = await server.post('/api/rag/improve', { text: 'hola' });
    expect(res.status).toBe(502);
    expect(res.body.i18nMessage).toBe('error.rag.llmFailed');
  });
});

describe('train, status, search, clear', () => {
  const TEXT = [
    'Política de devoluciones: tienes 30 días para devolver cualquier producto sin dar explicaciones.',
    'Envíos: el envío es gratuito en pedidos superiores a 50 euros y tarda de 24 a 48 horas.',
    'Información de contacto: escríbenos a soporte@example.com o llama al 900 123 456 de lunes a viernes.',
    'Garantía: todos los aparatos electrónicos tienen dos años de garantía legal.',
  ].join('\n\n');

  async function knowledgeWithText(extra: Record<string, unknown> = {}) {
    const source = await create(server, '/api/knowledge-sources', { name: 'Ayuda', type: 'text', sourceText: TEXT, text: TEXT });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge(`KB ${Math.random()}`, { sources: [source._id], ...extra }));
    return { source, knowledge };
  }

  it('round trip: train, search with scores in 0..1, status, clear', async () => {
    const { knowledge } = await knowledgeWithText({ scoreThreshold: 0.3 });
    const before = await server.get(`/api/rag/status/${knowledge._id}`);
    expect(before.body).toMatchObject({ state: 'idle', chunks: 0, trainedAt: null });

    const trained = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(trained.status).toBe(200);
    expect(trained.body).toMatchObject({ total: 1, added: 1, kept: 0, removed: 0, chunks: 1, problems: [] });
    expect(Date.parse(trained.body.trainedAt)).not.toBeNaN();

    const status = await server.get(`/api/rag/status/${knowledge._id}`);
    expect(status.body).toMatchObject({ state: 'done', chunks: 1, done: 1, total: 1 });

    const hits = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: '¿Cuánto cuesta el envío?' })}`);
    expect(hits.status).toBe(200);
    expect(hits.body).toHaveLength(1);
    expect(hits.body[0]).toEqual({ content: TEXT, score: expect.any(Number), source: 'Ayuda', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(hits.body[0].score).toBeGreaterThan(0);
    expect(hits.body[0].score).toBeLessThanOrEqual(1);

    const cleared = await server.del(`/api/rag/clear/${knowledge._id}`);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ removed: 1 });
    const after = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'envío' })}`);
    expect(after.body).toEqual([]);
    expect((await server.get(`/api/rag/status/${knowledge._id}`)).body).toMatchObject({ state: 'idle', chunks: 0 });
  });

  it('honours maxResults and scoreThreshold of the knowledge, and folds Spanish accents', async () => {
    const source = await create(server, '/api/knowledge-sources', {
      name: 'Trozos',
      type: 'chunk',
      chunks: [
        { content: 'La información del pedido llega por correo electrónico.' },
        { content: 'Nuestra política de privacidad protege tus datos.' },
        { content: 'Más información sobre envíos internacionales y aduanas.' },
        { content: 'Información general de la tienda y sus horarios.' },
        { content: 'Las políticas comerciales cambian cada año.' },
      ],
    });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Acentos', { sources: [source._id], maxResults: 2, scoreThreshold: 0.5 }));
    expect((await server.get(`/api/rag/train/${knowledge._id}`)).body.total).toBe(5);

    const info = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'informacion' })}`);
    expect(info.body).toHaveLength(2);
    for (const hit of info.body) expect(hit.content).toMatch(/información/i);
    const politicas = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'politicas' })}`);
    expect(politicas.body.map((h: { content: string }) => h.content).sort()).toEqual([
      'Las políticas comerciales cambian cada año.',
      'Nuestra política de privacidad protege tus datos.',
    ]);
    // Only "envíos" is known of this question: a chunk with it covers about a quarter of it.
    const put = await server.put(`/api/knowledge/${knowledge._id}`, { ...minimalKnowledge('Acentos'), sources: [source._id], maxResults: 5, scoreThreshold: 0.99 });
    expect(put.status).toBe(200);
    const strict = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'informacion aduanas pedido privacidad' })}`);
    expect(strict.body).toEqual([]);
    await server.put(`/api/knowledge/${knowledge._id}`, { ...minimalKnowledge('Acentos'), sources: [source._id], maxResults: 5, scoreThreshold: 0 });
    const loose = await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'informacion aduanas pedido privacidad' })}`);
    expect(loose.body.length).toBeGreaterThanOrEqual(4);
    const scores = loose.body.map((h: { score: number }) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('re-trains incrementally: unchanged chunks kept, edited ones replaced', async () => {
    const source = await create(server, '/api/knowledge-sources', {
      name: 'Inc',
      type: 'chunk',
      chunks: [{ content: 'uno primero' }, { content: 'dos segundo' }, { content: 'tres tercero' }],
    });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Inc', { sources: [source._id] }));
    expect((await server.get(`/api/rag/train/${knowledge._id}`)).body).toMatchObject({ total: 3, added: 3, kept: 0, removed: 0 });
    const again = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(again.body).toMatchObject({ total: 3, added: 0, kept: 3, removed: 0 });
    await server.put(`/api/knowledge-sources/${source._id}`, {
      name: 'Inc',
      type: 'chunk',
      chunks: [{ content: 'uno primero' }, { content: 'dos segundo' }, { content: 'cuatro cuarto' }],
    });
    expect((await server.get(`/api/rag/train/${knowledge._id}`)).body).toMatchObject({ total: 3, added: 1, kept: 2, removed: 1 });
    expect((await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'tercero' })}`)).body).toEqual([]);
    expect((await server.get(`/api/rag/search/${knowledge._id}${qs({ q: 'cuarto' })}`)).body[0].content).toBe('cuatro cuarto');
  });

  it('indexes edited chunks of a text source, its own texts, files and urls; reports problems', async () => {
    const source = await create(opened, '/api/knowledge-sources', {
      name: 'Texto troceado',
      type: 'text',
      sourceText: 'original sin trocear',
      text: 'original sin trocear',
      chunks: [{ content: 'fragmento editado a mano sobre reembolsos', category: 'pagos', tags: ['faq'] }],
    });
    const pdf = await upload('politica.pdf', fs.readFileSync(path.join(fixtures, 'sample.pdf')), 'application/pdf', opened);
    const knowledge = await create(opened, '/api/knowledge', minimalKnowledge('Mixta', {
      sources: [source._id],
      texts: [{ title: 'Horario', content: 'Abrimos de lunes a sábado.' }],
      files: [{ title: 'Política', file: pdf }],
      urls: [{ title: 'FAQ', url: `${siteUrl}/faq` }, { title: 'Rota', url: `${siteUrl}/missing` }],
      scoreThreshold: 0.2,
    }));
    const trained = await opened.get(`/api/rag/train/${knowledge._id}`);
    expect(trained.status).toBe(200);
    expect(trained.body.total).toBe(4);
    expect(trained.body.problems).toEqual([{ source: `${siteUrl}/missing`, message: expect.stringContaining('404'), reason: 'error.rag.urlHttpStatus' }]);
    const search = async (q: string) => (await opened.get(`/api/rag/search/${knowledge._id}${qs({ q })}`)).body as Array<{ source: string; content: string }>;
    expect((await search('reembolsos'))[0]).toMatchObject({ source: 'Texto troceado' });
    expect(await search('trocear')).toEqual([]);
    expect((await search('sabado'))[0]).toMatchObject({ source: 'Horario' });
    expect((await search('devolver'))[0]).toMatchObject({ source: 'politica.pdf' });
    expect((await search('garantia'))[0]).toMatchObject({ source: `${siteUrl}/faq` });
  });

  it('refuses a second concurrent training (and a clear) of the same knowledge with 409; status shows it running', async () => {
    const knowledge = await create(opened, '/api/knowledge', minimalKnowledge('Lenta', { urls: [{ title: 'lenta', url: `${siteUrl}/slow` }] }));
    const first = opened.get(`/api/rag/train/${knowledge._id}`);
    const running = await until(() => opened.get(`/api/rag/status/${knowledge._id}`), (res) => res.body?.state === 'running', 'the training to be running');
    expect(running.body).toMatchObject({ state: 'running', phase: 'planning' });
    const second = await opened.get(`/api/rag/train/${knowledge._id}`);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ message: expect.any(String), i18nMessage: 'error.rag.trainingInProgress' });
    const clear = await opened.del(`/api/rag/clear/${knowledge._id}`);
    expect(clear.status).toBe(409);
    const done = await first;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ total: 1, added: 1 });
    expect((await opened.get(`/api/rag/status/${knowledge._id}`)).body).toMatchObject({ state: 'done', chunks: 1 });
  });

  it('keeps the outcome on the knowledge record: trained, warning with reasons (a refused link), not trained after a clear', async () => {
    const { knowledge } = await knowledgeWithText();
    const fresh = await server.get(`/api/knowledge/${knowledge._id}`);
    expect(fresh.body).toMatchObject({ trainingState: null, trainedAt: null, trainedChunks: null });
    await server.get(`/api/rag/train/${knowledge._id}`);
    const trained = (await server.get(`/api/knowledge/${knowledge._id}`)).body;
    expect(trained).toMatchObject({ trainingState: 'trained', trainedChunks: 1, trainingProblems: [], updatedAt: knowledge.updatedAt });
    expect(Date.parse(trained.trainedAt)).not.toBeNaN();

    // RAG_ALLOW_PRIVATE_URLS unset: the address policy refuses the loopback link; the rest trains.
    const empty = await upload('vacio.txt', '', 'text/plain');
    const put = await server.put(`/api/knowledge/${knowledge._id}`, { urls: [{ title: 'local', url: `${siteUrl}/faq` }], files: [{ title: 'Vacío', file: empty }] });
    expect(put.status, put.text).toBe(200);
    const warned = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(warned.status).toBe(200);
    const problems = [
      { source: 'vacio.txt', message: 'no text to index', reason: 'knowledge.problem.empty' },
      { source: `${siteUrl}/faq`, message: expect.stringMatching(/^Refused: 127\.0\.0\.1 resolves to a non-public address/), reason: 'error.rag.urlRefused' },
    ];
    expect(warned.body.problems).toEqual(problems);
    const page = await server.get(`/api/knowledge${qs({ filters: 'trainingState;eq;warning' })}`);
    expect(page.body.items.map((k: any) => k._id)).toContain(knowledge._id);
    expect(page.body.items.find((k: any) => k._id === knowledge._id)).toMatchObject({ trainingState: 'warning', trainedChunks: 1, trainingProblems: problems });
    expect((await server.get(`/api/rag/status/${knowledge._id}`)).body).toMatchObject({ state: 'done', outcome: 'warning', problems });

    // Clients cannot write the outcome: readonly fields are dropped.
    await server.put(`/api/knowledge/${knowledge._id}`, { trainingState: 'trained', trainedChunks: 99, trainingProblems: [] });
    expect((await server.get(`/api/knowledge/${knowledge._id}`)).body).toMatchObject({ trainingState: 'warning', trainedChunks: 1 });

    await server.del(`/api/rag/clear/${knowledge._id}`);
    expect((await server.get(`/api/knowledge/${knowledge._id}`)).body).toMatchObject({ trainingState: null, trainedAt: null, trainedChunks: null, trainingProblems: [] });
    expect((await server.get(`/api/rag/status/${knowledge._id}`)).body).toMatchObject({ state: 'idle', outcome: null, chunks: 0 });
  });

  it('the last outcome survives a restart, and a failed training is recorded as failed with its reason', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-rag-restart-'));
    let first: TestServer | null = await startTestServer({ resolveContext: () => ADMIN, dataDir });
    let second: TestServer | null = null;
    try {
      const empty = (await first.upload('/api/file', { name: 'vacio.txt', content: '', type: 'text/plain' })).body;
      const knowledge = await create(first, '/api/knowledge', minimalKnowledge('Reinicio', { files: [{ file: empty }], texts: [{ title: 'Hora', content: 'Abrimos a las 9.' }] }));
      expect((await first.get(`/api/rag/train/${knowledge._id}`)).status).toBe(200);
      await first.close({ keepData: true });
      first = null;
      second = await startTestServer({ resolveContext: () => ADMIN, dataDir });
      expect((await second.get(`/api/knowledge/${knowledge._id}`)).body).toMatchObject({
        trainingState: 'warning',
        trainedChunks: 1,
        trainingProblems: [{ source: 'vacio.txt', message: 'no text to index', reason: 'knowledge.problem.empty' }],
      });
      expect((await second.get(`/api/rag/status/${knowledge._id}`)).body).toMatchObject({
        state: 'done', outcome: 'warning', chunks: 1, problems: [{ source: 'vacio.txt', reason: 'knowledge.problem.empty' }],
      });
      if (process.env.FORJA_TEST_DB === 'postgres') return; // embeddings (the failure below) are SQLite-only
      await second.close({ keepData: true });
      second = null;
      // An embedding model nobody answers for: the training itself fails; the old index stays live.
      second = await startTestServer({ resolveContext: () => ADMIN, dataDir, env: { EMBEDDING_MODEL: 'dead-model', EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1' } });
      const failed = await second.get(`/api/rag/train/${knowledge._id}`);
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expectErrorShape(failed.body);
      const stored = (await second.get(`/api/knowledge/${knowledge._id}`)).body;
      expect(stored).toMatchObject({ trainingState: 'failed', trainedChunks: 1 });
      expect(stored.trainingProblems).toEqual([{ source: '', message: failed.body.message, reason: failed.body.i18nMessage ?? 'error.server' }]);
      expect((await second.get(`/api/rag/status/${knowledge._id}`)).body).toMatchObject({ state: 'failed', error: failed.body.message });
    } finally {
      await first?.close({ keepData: true });
      await second?.close({ keepData: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('404s for unknown knowledge, 400s for a missing query', async () => {
    for (const p of ['/api/rag/train/nope', '/api/rag/status/nope', `/api/rag/search/nope${qs({ q: 'x' })}`]) {
      const res = await server.get(p);
      expect(res.status, p).toBe(404);
      expectErrorShape(res.body);
    }
    expect((await server.del('/api/rag/clear/nope')).status).toBe(404);
    const { knowledge } = await knowledgeWithText();
    const noQ = await server.get(`/api/rag/search/${knowledge._id}`);
    expect(noQ.status).toBe(400);
    expect(noQ.body.inputErrors).toEqual([{ field: 'q', reason: 'error.rag.invalidInput' }]);
    const twice = await server.get(`/api/rag/search/${knowledge._id}?q=a&q=b`);
    expect(twice.status).toBe(400);
  });
});

describe('permissions and tenants', () => {
  /** Caller from headers: x-tenant (tenant id) and x-perms (comma-separated permissions). */
  let scoped: TestServer;
  beforeAll(async () => {
    scoped = await startTestServer({
      resolveContext: (request) => ({
        userId: `u-${String(request.headers['x-tenant'] ?? 'admin')}`,
        tenantId: (request.headers['x-tenant'] as string | undefined) ?? null,
        permissions: String(request.headers['x-perms'] ?? '*').split(',').filter(Boolean),
      }),
    });
  });
  afterAll(async () => scoped.close());

  const call = (method: string, p: string, headers: Record<string, string>, body?: unknown) =>
    scoped.raw(p, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  it('a tenant trains and searches only its own knowledge', async () => {
    const a = { 'x-tenant': 'tenant-a', 'x-perms': 'knowledge:manage,knowledgesource:manage' };
    const b = { 'x-tenant': 'tenant-b', 'x-perms': 'knowledge:manage,knowledgesource:manage' };
    const source = await call('POST', '/api/knowledge-sources', a, { name: 'Secreto', type: 'chunk', chunks: [{ content: 'la clave secreta es naranja' }] });
    expect(source.status).toBe(201);
    const knowledge = await call('POST', '/api/knowledge', a, minimalKnowledge('De A', { sources: [source.body._id] }));
    expect(knowledge.status).toBe(201);
    const id = knowledge.body._id;

    expect((await call('GET', `/api/rag/train/${id}`, b)).status).toBe(404);
    expect((await call('GET', `/api/rag/train/${id}`, a)).status).toBe(200);
    expect((await call('GET', `/api/rag/search/${id}?q=clave`, b)).status).toBe(404);
    expect((await call('GET', `/api/rag/status/${id}`, b)).status).toBe(404);
    expect((await call('DELETE', `/api/rag/clear/${id}`, b)).status).toBe(404);
    const own = await call('GET', `/api/rag/search/${id}?q=clave`, a);
    expect(own.body[0].content).toBe('la clave secreta es naranja');

    // B's knowledge pointing at A's source gets nothing from it.
    const sneaky = await call('POST', '/api/knowledge', b, minimalKnowledge('De B', { sources: [source.body._id] }));
    if (sneaky.status === 201) {
      const trained = await call('GET', `/api/rag/train/${sneaky.body._id}`, b);
      expect(trained.body.total).toBe(0);
      expect(trained.body.problems).toEqual([{ source: source.body._id, message: 'knowledge source not found' }]);
    } else {
      expect(sneaky.status).toBe(400);
    }
  });

  it('checks the permissions of each route', async () => {
    const created = await call('POST', '/api/knowledge', {}, minimalKnowledge('Permisos'));
    const id = created.body._id;
    const viewer = { 'x-perms': 'knowledge:view' };
    expect((await call('GET', `/api/rag/search/${id}?q=x`, viewer)).status).toBe(200);
    expect((await call('GET', `/api/rag/status/${id}`, viewer)).status).toBe(200);
    expect((await call('GET', `/api/rag/train/${id}`, viewer)).status).toBe(403);
    expect((await call('DELETE', `/api/rag/clear/${id}`, viewer)).status).toBe(403);
    expect((await call('GET', `/api/rag/train/${id}`, { 'x-perms': 'knowledge:update' })).status).toBe(200);
    expect((await call('DELETE', `/api/rag/clear/${id}`, { 'x-perms': 'knowledge:manage' })).status).toBe(200);

    for (const perms of ['knowledgesource:create', 'knowledgesource:update', 'knowledgesource:manage']) {
      expect((await call('POST', '/api/rag/chunk', { 'x-perms': perms }, { text: 'hola' })).status, perms).toBe(200);
    }
    for (const route of ['/api/rag/chunk', '/api/rag/parse-file', '/api/rag/parse-url', '/api/rag/improve']) {
      expect((await call('POST', route, { 'x-perms': 'knowledgesource:view,knowledge:manage' }, { text: 'hola' })).status, route).toBe(403);
    }
  });
});
