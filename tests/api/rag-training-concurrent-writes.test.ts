import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalKnowledge } from './helpers/fixtures.ts';

/**
 * A training running while entities are written through the API: a real import (a bulk write of
 * thousands of rows, which on SQLite holds the write lock on a connection of its own, in slices)
 * and single creates (each a transaction). The index writes wait at the database's write gate
 * (sqliteWriteGateOf), so nothing fails with SQLITE_BUSY and both end complete: every row
 * imported, every chunk searchable. tests/unit/rag/sqlite-index-write-gate.test.ts pins the
 * interleavings one by one; this is the same through the server, on either database.
 */
const IMPORT_ROWS = 4_000;
const PARAGRAPHS = 1_500;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => server?.close());

describe('a training while entities are written', () => {
  it('completes together with an import and single creates, with the index and the rows whole', async () => {
    const content = Array.from({ length: PARAGRAPHS }, (_, i) => `Artículo ${i}: el pedido número ${i} llega en ${(i % 9) + 1} días laborables a la provincia ${i}.`).join('\n\n');
    const knowledge = await create<{ _id: string }>(server, '/api/knowledge', minimalKnowledge('Pedidos', { texts: [{ title: 'Plazos', content }] }));

    const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => `estado-concurrente-${i}`);
    const [trained, imported, ...created] = await Promise.all([
      server.get(`/api/rag/train/${knowledge._id}`),
      server.upload('/api/bot-trace-statuses/import', { name: 'estados.csv', content: ['name', ...rows].join('\n') }),
      ...Array.from({ length: 10 }, (_, i) => server.post('/api/bots', { name: `Bot concurrente ${i}`, description: 'escrito durante el entrenamiento' })),
    ]);

    expect(trained.status, trained.text).toBe(200);
    expect(trained.body.problems).toEqual([]);
    const chunks = trained.body.chunks as number;
    expect(chunks).toBeGreaterThan(1);
    expect(imported.status, imported.text).toBe(200);
    for (const response of created) expect(response.status, response.text).toBe(201);

    const statuses = await server.get('/api/bot-trace-statuses?search=estado-concurrente&limit=1');
    expect(statuses.status).toBe(200);
    expect(statuses.body.total ?? statuses.body.totalCount ?? statuses.headers.get('x-total-count')).toBe(IMPORT_ROWS);
    const status = await server.get(`/api/rag/status/${knowledge._id}`);
    expect(status.body).toMatchObject({ state: 'done', outcome: 'trained', chunks });
    const hits = await server.get(`/api/rag/search/${knowledge._id}?q=${encodeURIComponent('días laborables provincia')}`);
    expect(hits.status, hits.text).toBe(200);
    expect(JSON.stringify(hits.body)).toContain('días laborables a la provincia');
  }, 180_000);
});
