// What one training recorded per knowledge source (trainedSources, problems with sourceId): the
// console's per-source state (pending, indexed with N fragments, problem) and its "needs
// retraining" notice are read from these fields and the sources' updatedAt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalKnowledge } from './helpers/fixtures.ts';
import { nextMillisecond } from './helpers/until.ts';

const ADMIN = { userId: 'content-admin', tenantId: null, permissions: ['*'] };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ resolveContext: () => ADMIN });
});
afterAll(async () => {
  await server.close();
});

const textSource = (name: string, text: string, extra: Record<string, unknown> = {}) => ({ name, type: 'text', sourceText: text, text, ...extra });

describe('trainedSources on the knowledge record', () => {
  it('records each source with its fragments and the updatedAt it had; an edit since is visible; a clear empties it', async () => {
    const envios = await create(server, '/api/knowledge-sources', textSource('Envíos', 'El envío es gratuito desde 50 euros.'));
    const faq = await create(server, '/api/knowledge-sources', {
      ...textSource('FAQ', 'texto entero'),
      chunks: [{ content: 'Abrimos de 9 a 18 horas.' }, { content: 'Cerramos los domingos.' }],
    });
    const empty = await create(server, '/api/knowledge-sources', { name: 'Vacía', type: 'chunk', chunks: [] });
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Tienda', { sources: [envios._id, faq._id, empty._id] }));
    expect((await server.get(`/api/knowledge/${knowledge._id}`)).body.trainedSources ?? []).toEqual([]);

    const trained = await server.get(`/api/rag/train/${knowledge._id}`);
    expect(trained.status, trained.text).toBe(200);
    const record = (await server.get(`/api/knowledge/${knowledge._id}`)).body;
    expect(record.trainedSources).toEqual([
      { source: envios._id, name: 'Envíos', chunks: 1, version: envios.updatedAt },
      { source: faq._id, name: 'FAQ', chunks: 2, version: faq.updatedAt },
      { source: empty._id, name: 'Vacía', chunks: 0, version: empty.updatedAt },
    ]);
    // The problem names the source by id too: two sources may share a name.
    expect(record.trainingProblems).toEqual([{ source: 'Vacía', message: 'no text to index', reason: 'knowledge.problem.empty', sourceId: empty._id }]);
    expect(record.trainingState).toBe('warning');

    // An edit after the training: its updatedAt no longer matches the recorded version.
    await nextMillisecond();
    const edited = await server.put(`/api/knowledge-sources/${envios._id}`, textSource('Envíos', 'El envío es gratuito desde 30 euros.'));
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.updatedAt).not.toBe(envios.updatedAt);
    const stale = (await server.get(`/api/knowledge/${knowledge._id}`)).body;
    expect(stale.trainedSources[0].version).toBe(envios.updatedAt);

    // Clients cannot write it (read-only fields are dropped from bodies).
    const put = await server.put(`/api/knowledge/${knowledge._id}`, { ...minimalKnowledge('Tienda'), sources: [envios._id], trainedSources: [{ source: 'x', name: 'x', chunks: 9, version: null }] });
    expect(put.status, put.text).toBe(200);
    expect(put.body.trainedSources).toEqual(record.trainedSources);

    const cleared = await server.del(`/api/rag/clear/${knowledge._id}`);
    expect(cleared.status).toBe(200);
    expect((await server.get(`/api/knowledge/${knowledge._id}`)).body.trainedSources).toEqual([]);
  });

  it('comes with the knowledge list rows', async () => {
    const source = await create(server, '/api/knowledge-sources', textSource('Garantía', 'Dos años de garantía.'));
    const knowledge = await create(server, '/api/knowledge', minimalKnowledge('Garantías', { sources: [source._id] }));
    await server.get(`/api/rag/train/${knowledge._id}`);
    const page = await server.get(`/api/knowledge?search=Garant`);
    const row = page.body.items.find((item: { _id: string }) => item._id === knowledge._id);
    expect(row.trainedSources).toEqual([{ source: source._id, name: 'Garantía', chunks: 1, version: source.updatedAt }]);
  });
});
