import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../server/rag/chunk/sha256-hex.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import type { SourcedChunk } from '../../../server/rag/rag-types.ts';
import { SqliteFtsIndex } from '../../../server/db/retrieval/sqlite-fts-index.ts';
import { UNSEEN_WEIGHT } from '../../../server/rag/search/bm25-score.ts';
import { memorySqliteWithOwnedTables } from '../../helpers/owned-tables.ts';

const chunk = (content: string, source = 'manual'): SourcedChunk => ({ content, hash: sha256Hex(content), source });

const FAQ = [
  chunk('La política de devoluciones permite devolver artículos durante 30 días.', 'politicas.pdf'),
  chunk('El envío es gratuito para pedidos superiores a 50 euros.', 'envios.html'),
  chunk('Para más información sobre garantías, contacte con soporte técnico.', 'garantias.md'),
  chunk('Nuestro horario de atención al cliente es de lunes a viernes de 9 a 18 horas.', 'horario'),
  chunk('Las facturas se envían por correo electrónico tras cada compra.', 'facturas'),
];
const ALL = { maxResults: 10, scoreThreshold: 0 };

let db: Database.Database;
let index: SqliteFtsIndex;
beforeEach(async () => {
  db = await memorySqliteWithOwnedTables();
  index = new SqliteFtsIndex(db, { batchSize: 2 });
});
afterEach(() => db.close());

describe('SqliteFtsIndex search', () => {
  beforeEach(async () => {
    await index.replace('k1', FAQ);
  });

  it('matches Spanish words regardless of accents, case and inflection', async () => {
    const [top] = await index.search('k1', 'POLITICAS de devolucion', ALL);
    expect(top.source).toBe('politicas.pdf');
    const [info] = await index.search('k1', 'informacion', ALL);
    expect(info.source).toBe('garantias.md');
    const [plural] = await index.search('k1', 'informaciones garantia', ALL);
    expect(plural.source).toBe('garantias.md');
    const [envio] = await index.search('k1', '¿El ENVIO es GRATUITO?', ALL);
    expect(envio.source).toBe('envios.html');
  });

  it('returns content, source, hash and a score in 0..1, best first', async () => {
    const results = await index.search('k1', 'envío gratuito pedidos', ALL);
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]).toEqual({ content: FAQ[1].content, source: 'envios.html', hash: FAQ[1].hash, score: expect.any(Number) });
    for (const r of results) expect(r.score).toBeGreaterThan(0), expect(r.score).toBeLessThanOrEqual(1);
    const scores = results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('scores a chunk containing every query term near 1 and a partial match lower', async () => {
    const [full] = await index.search('k1', 'envío gratuito', ALL);
    expect(full.score).toBeGreaterThan(0.8);
    const partial = await index.search('k1', 'envío gratuito horario', ALL);
    expect(partial[0].source).toBe('envios.html');
    expect(partial[0].score).toBeLessThan(full.score);
    expect(partial[0].score).toBeGreaterThan(0.4);
  });

  it('counts each question word the knowledge base never uses as UNSEEN_WEIGHT of an average known one', async () => {
    // "cuesta" and "tienda" are in no chunk: the score's denominator grows by 2 x 0.6 x the mean idf
    // of "envío" and "gratuito", so the same chunk scores plain / 1.6, still ranked first.
    const [withNoise] = await index.search('k1', '¿Cuánto cuesta el envío gratuito en la tienda?', ALL);
    const [plain] = await index.search('k1', 'envío gratuito', ALL);
    expect(withNoise.source).toBe('envios.html');
    expect(withNoise.score).toBeCloseTo(plain.score / (1 + 2 * UNSEEN_WEIGHT / 2), 10);
    expect(await index.search('k1', 'capital de Francia', ALL)).toEqual([]);
  });

  it('honours maxResults and scoreThreshold', async () => {
    const many = await index.search('k1', 'política envío información horario facturas', ALL);
    expect(many.length).toBe(5);
    expect(await index.search('k1', 'política envío información horario facturas', { maxResults: 2, scoreThreshold: 0 })).toHaveLength(2);
    const strict = await index.search('k1', 'política envío información horario facturas', { maxResults: 10, scoreThreshold: 0.5 });
    expect(strict).toHaveLength(0);
    const some = await index.search('k1', 'envío gratuito horario', { maxResults: 10, scoreThreshold: 0.3 });
    for (const r of some) expect(r.score).toBeGreaterThanOrEqual(0.3);
    const threshold = many[2].score;
    const cut = await index.search('k1', 'política envío información horario facturas', { maxResults: 10, scoreThreshold: threshold });
    expect(cut.every((r) => r.score >= threshold)).toBe(true);
    expect(cut.length).toBeGreaterThanOrEqual(3);
  });

  it('answers nothing for stop words only, empty queries and unknown knowledge', async () => {
    expect(await index.search('k1', 'de la que el', ALL)).toEqual([]);
    expect(await index.search('k1', '   ', ALL)).toEqual([]);
    expect(await index.search('nobody', 'envío', ALL)).toEqual([]);
  });

  it.each([
    '"', '""', "'", '(', ')', 'envío)', '(envío', 'NEAR(envío pedido, 2)', 'envío*', '*', '-envío', 'envío -pedido',
    'terms: envío', 'envío AND', 'OR OR', 'NOT', '^envío', '{terms}: x', 'envío + pedido', '\u0000', '🙂', 'a"b"c',
  ])('never throws on FTS syntax in the query: %s', async (query) => {
    await expect(index.search('k1', query, ALL)).resolves.toBeInstanceOf(Array);
  });

  it('keeps knowledge bases apart', async () => {
    await index.replace('k2', [chunk('El envío internacional tarda dos semanas.', 'otro')]);
    const results = await index.search('k2', 'envío', ALL);
    expect(results.map((r) => r.source)).toEqual(['otro']);
    expect((await index.search('k1', 'envío', ALL)).map((r) => r.source)).not.toContain('otro');
  });

  it('rejects bad options and over-long queries with a 400', async () => {
    await expect(index.search('k1', 'x', { maxResults: 0, scoreThreshold: 0.5 })).rejects.toMatchObject({ statusCode: 400, field: 'maxResults' });
    await expect(index.search('k1', 'x', { maxResults: 5, scoreThreshold: 1.5 })).rejects.toMatchObject({ field: 'scoreThreshold' });
    await expect(index.search('k1', 'x'.repeat(5000), ALL)).rejects.toBeInstanceOf(RagError);
    await expect(index.search('', 'x', ALL)).rejects.toMatchObject({ field: 'id' });
  });
});

describe('SqliteFtsIndex training', () => {
  const rowids = () =>
    new Map((db.prepare('SELECT hash, id FROM rag_chunk').all() as Array<{ hash: string; id: number }>).map((r) => [r.hash, r.id]));

  it('keeps unchanged chunks (same rowid), adds new ones and deletes removed ones', async () => {
    const first = await index.replace('k1', FAQ);
    expect(first).toEqual({ total: 5, added: 5, kept: 0, removed: 0 });
    const before = rowids();

    const next = [...FAQ.slice(0, 3), chunk('Aceptamos pagos con tarjeta y transferencia.', 'pagos')];
    const second = await index.replace('k1', next);
    expect(second).toEqual({ total: 4, added: 1, kept: 3, removed: 2 });
    const after = rowids();
    for (const c of FAQ.slice(0, 3)) expect(after.get(c.hash)).toBe(before.get(c.hash));
    expect(after.has(FAQ[3].hash)).toBe(false);
    expect(after.size).toBe(4);
    expect((await index.search('k1', 'horario', ALL))).toEqual([]);
    expect((await index.search('k1', 'pagos tarjeta', ALL))[0].source).toBe('pagos');
    expect(await index.stats('k1')).toMatchObject({ chunks: 4, generation: 2 });

    const third = await index.replace('k1', next);
    expect(third).toEqual({ total: 4, added: 0, kept: 4, removed: 0 });
    expect(rowids()).toEqual(after);
  });

  it('updates the source label of an unchanged chunk without re-inserting it', async () => {
    await index.replace('k1', FAQ);
    const before = rowids();
    await index.replace('k1', [{ ...FAQ[0], source: 'renamed.pdf' }]);
    expect(rowids().get(FAQ[0].hash)).toBe(before.get(FAQ[0].hash));
    expect((await index.search('k1', 'devoluciones', ALL))[0].source).toBe('renamed.pdf');
  });

  it('stores duplicate contents once', async () => {
    const result = await index.replace('k1', [FAQ[0], FAQ[0], { ...FAQ[0], source: 'copy' }]);
    expect(result.total).toBe(1);
    expect((await index.search('k1', 'devoluciones', ALL))[0].source).toBe('politicas.pdf');
  });

  it('answers searches during a re-train from the previous index, and reports progress', async () => {
    await index.replace('k1', FAQ);
    const replacement = [chunk('Nuevo texto sobre cupones de descuento.', 'cupones'), chunk('Otro texto de cupones.', 'c2'), chunk('Tercero: cupones y regalos.', 'c3')];
    // Searches issued between batches (here from the progress callback, which runs between them)
    // must see the live generation: the old chunks, none of the new ones.
    const seen: Array<{ done: number; total: number; during: Promise<[number, number]> }> = [];
    const searchBoth = async (): Promise<[number, number]> => [
      (await index.search('k1', 'horario', ALL)).length,
      (await index.search('k1', 'cupones', ALL)).length,
    ];
    await index.replace('k1', replacement, (progress) => {
      seen.push({ ...progress, during: searchBoth() });
    });
    expect(seen.map(({ done, total }) => [done, total])).toEqual([[0, 3], [2, 3], [3, 3]]);
    expect(await Promise.all(seen.map((s) => s.during))).toEqual([[1, 0], [1, 0], [1, 0]]);
    expect(await index.search('k1', 'horario', ALL)).toEqual([]);
    expect(await index.search('k1', 'cupones', ALL)).toHaveLength(3);
  });

  it('refuses a second concurrent training of the same knowledge with a 409', async () => {
    const first = index.replace('k1', FAQ);
    await expect(index.replace('k1', FAQ)).rejects.toMatchObject({ statusCode: 409, code: 'trainingInProgress' });
    await expect(index.clear('k1')).rejects.toMatchObject({ statusCode: 409 });
    await first;
  });

  it('cleans up what an interrupted training left behind', async () => {
    await index.replace('k1', FAQ.slice(0, 2));
    const boom = new Error('progress listener failed');
    await expect(index.replace('k1', FAQ, ({ done }) => { if (done > 2) throw boom; })).rejects.toBe(boom);
    expect((await index.stats('k1')).chunks).toBe(2);
    expect(await index.search('k1', 'horario', ALL)).toEqual([]);
    const result = await index.replace('k1', FAQ);
    expect(result).toEqual({ total: 5, added: 3, kept: 2, removed: 0 });
    expect((db.prepare('SELECT count(*) FROM rag_chunk').pluck().get())).toBe(5);
    expect((db.prepare('SELECT count(*) FROM rag_fts_1').pluck().get())).toBe(5);
  });

  it('clears a knowledge completely', async () => {
    await index.replace('k1', FAQ);
    await index.replace('k2', FAQ.slice(0, 1));
    expect(await index.clear('k1')).toEqual({ removed: 5 });
    expect(await index.search('k1', 'envío', ALL)).toEqual([]);
    expect(await index.stats('k1')).toEqual({ chunks: 0, generation: 0, trainedAt: null });
    expect((await index.stats('k2')).chunks).toBe(1);
    expect(await index.clear('k1')).toEqual({ removed: 0 });
  });

  it('rejects chunks without content', async () => {
    await expect(index.replace('k1', [chunk('ok'), { content: '  ', hash: 'x', source: 's' }])).rejects.toMatchObject({
      statusCode: 400,
      field: 'chunks.1.content',
    });
  });
});
