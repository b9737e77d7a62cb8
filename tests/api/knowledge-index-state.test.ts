// indexState on every knowledge read (server/rag/train/knowledge-index-state.ts): the console's
// knowledge list shows per row whether a base is being trained, was never trained, needs
// retraining (a source added, changed or removed since, or its own texts edited) or is current.
// Derived per read for a whole page at once: the same number of queries for 3 rows as for 30.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { knowledgeIndexState } from '../../server/rag/train/knowledge-index-state.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalKnowledge } from './helpers/fixtures.ts';
import { startHeldPageSite, type HeldPageSite } from './helpers/held-page-site.ts';
import { nextMillisecond, until } from './helpers/until.ts';

let server: TestServer;
let site: HeldPageSite;

beforeAll(async () => {
  site = await startHeldPageSite();
  server = await startTestServer({ env: { JOBS_POLL_MS: '50', RAG_ALLOW_PRIVATE_URLS: 'true' } });
});

afterAll(async () => {
  site?.release();
  await server?.close();
  await site?.close();
});

const textSource = (name: string, text: string) => ({ name, type: 'text', sourceText: text, text });

async function stateOf(id: string): Promise<string> {
  const page = await server.get(`/api/knowledge?limit=100`);
  expect(page.status, page.text).toBe(200);
  const row = page.body.items.find((item: { _id: string }) => item._id === id);
  return row.indexState;
}

async function train(id: string): Promise<void> {
  const trained = await server.get(`/api/rag/train/${id}`);
  expect(trained.status, trained.text).toBe(200);
}

describe('indexState on knowledge reads', () => {
  it('follows the base from never trained to trained, then behind after each kind of change', async () => {
    const envios = await create(server, '/api/knowledge-sources', textSource('Envíos', 'El envío es gratuito desde 50 euros.'));
    const horario = await create(server, '/api/knowledge-sources', textSource('Horario', 'Abrimos de 9 a 18 horas.'));
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Tienda', { sources: [envios._id] }));
    expect(knowledge.indexState).toBe('notTrained');
    expect(await stateOf(knowledge._id)).toBe('notTrained');

    await train(knowledge._id);
    expect(await stateOf(knowledge._id)).toBe('trained');
    // The record read alone says the same as its row.
    expect((await server.get(`/api/knowledge/${knowledge._id}`)).body.indexState).toBe('trained');

    // A source edited since the training.
    await nextMillisecond();
    expect((await server.put(`/api/knowledge-sources/${envios._id}`, textSource('Envíos', 'Gratis desde 30 euros.'))).status).toBe(200);
    expect(await stateOf(knowledge._id)).toBe('needsRetraining');
    await train(knowledge._id);
    expect(await stateOf(knowledge._id)).toBe('trained');

    // A source added, then removed again (the index still holds it).
    const added = await server.put(`/api/knowledge/${knowledge._id}`, { ...minimalKnowledge('Tienda'), sources: [envios._id, horario._id] });
    expect(added.status, added.text).toBe(200);
    expect(added.body.indexState).toBe('needsRetraining');
    await train(knowledge._id);
    expect(await stateOf(knowledge._id)).toBe('trained');
    await server.put(`/api/knowledge/${knowledge._id}`, { ...minimalKnowledge('Tienda'), sources: [envios._id] });
    expect(await stateOf(knowledge._id)).toBe('needsRetraining');
    await train(knowledge._id);

    // The base's own text edited after the training.
    await nextMillisecond();
    await server.put(`/api/knowledge/${knowledge._id}`, { ...minimalKnowledge('Tienda'), sources: [envios._id], texts: [{ title: 'Nota', content: 'Cerramos en agosto.' }] });
    expect(await stateOf(knowledge._id)).toBe('needsRetraining');

    // A clear empties the index: not trained again.
    expect((await server.del(`/api/rag/clear/${knowledge._id}`)).status).toBe(200);
    expect(await stateOf(knowledge._id)).toBe('notTrained');
  });

  it('is "training" while a training of the base is queued or running', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Garantías', { urls: [{ title: 'web', url: `${site.url}/hold` }] }));
    const training = server.get(`/api/rag/train/${knowledge._id}`);
    await until(() => stateOf(knowledge._id), (state) => state === 'training', 'the list to show the training');
    await site.releaseWhenAsked();
    expect((await training).status).toBe(200);
    expect(await stateOf(knowledge._id)).toBe('trained');
  });

  it('a record sent back as read, indexState included, is saved (the property is derived, never stored)', async () => {
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Devoluciones', { texts: [{ title: 'Plazo', content: 'Treinta días.' }] }));
    const asRead = (await server.get(`/api/knowledge/${knowledge._id}`)).body;
    expect(asRead.indexState).toBe('notTrained');
    const put = await server.put(`/api/knowledge/${knowledge._id}`, { ...asRead, indexState: 'trained' });
    expect(put.status, put.text).toBe(200);
    expect(put.body.indexState).toBe('notTrained');
  });

  it('costs the same queries for a page of 3 bases as for a page of 30 (no query per row)', async () => {
    const sources = [];
    for (let i = 0; i < 30; i++) sources.push(await create(server, '/api/knowledge-sources', textSource(`Fuente ${i}`, `Texto ${i}.`)));
    for (let i = 0; i < 30; i++) await create(server, '/api/knowledge', minimalKnowledge(`Página ${i}`, { sources: [sources[i]._id, sources[(i + 1) % 30]._id] }));
    const database = server.forja.database;
    // The queries of one list request on the tables indexState reads (others, such as the caller's
    // session or the job worker polling its queue, depend on caches and timers).
    const queriesFor = async (limit: number) => {
      // Every method that runs a query returning rows (Database.read: rows as arrays).
      const spies = [vi.spyOn(database, 'all'), vi.spyOn(database, 'read'), vi.spyOn(database, 'first')];
      try {
        const page = await server.get(`/api/knowledge?search=P%C3%A1gina&limit=${limit}`);
        expect(page.status).toBe(200);
        expect(page.body.items).toHaveLength(limit);
        expect(page.body.items.every((item: { indexState?: string }) => item.indexState === 'notTrained')).toBe(true);
        const sql = spies.flatMap((spy) => spy.mock.calls.map(([query]) => query.sql));
        return { sources: sql.filter((text) => text.includes('knowledge_sources')).length, jobs: sql.filter((text) => /forja_jobs.*"singleton_key" in \(/s.test(text)).length };
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    };
    const small = await queriesFor(3);
    const large = await queriesFor(30);
    expect(large).toEqual(small);
    // One for the jobs; for the sources, one for their names (refs) and one for their versions.
    expect(large).toEqual({ sources: 2, jobs: 1 });
  });
});

describe('knowledgeIndexState', () => {
  const trainedAt = '2026-01-02T00:00:00.000Z';
  const base = { trainedAt, updatedAt: '2026-01-01T00:00:00.000Z', sources: [{ _id: 's1', name: 'A' }], trainedSources: [{ source: 's1', version: 'v1' }] };

  it('reads the recorded versions, the sources that still exist and the base\'s own edits', () => {
    expect(knowledgeIndexState(base, new Map([['s1', 'v1']]), false)).toBe('trained');
    expect(knowledgeIndexState(base, new Map([['s1', 'v1']]), true)).toBe('training');
    expect(knowledgeIndexState({ ...base, trainedAt: null }, new Map([['s1', 'v1']]), false)).toBe('notTrained');
    expect(knowledgeIndexState(base, new Map([['s1', 'v2']]), false)).toBe('needsRetraining');
    // A source deleted since the training: the index still holds its fragments.
    expect(knowledgeIndexState(base, new Map(), false)).toBe('needsRetraining');
    expect(knowledgeIndexState({ ...base, texts: [{ content: 'x' }], updatedAt: '2026-01-03T00:00:00.000Z' }, new Map([['s1', 'v1']]), false)).toBe('needsRetraining');
    // Trained before trainedSources was recorded: the source's updatedAt against the training time.
    const legacy = { trainedAt, sources: ['s1'] };
    expect(knowledgeIndexState(legacy, new Map([['s1', '2026-01-01T00:00:00.000Z']]), false)).toBe('trained');
    expect(knowledgeIndexState(legacy, new Map([['s1', '2026-01-05T00:00:00.000Z']]), false)).toBe('needsRetraining');
  });
});
