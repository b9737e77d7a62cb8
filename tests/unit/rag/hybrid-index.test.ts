import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../server/rag/chunk/sha256-hex.ts';
import type { SourcedChunk } from '../../../server/rag/rag-types.ts';
import type { EmbeddingProvider } from '../../../server/rag/search/embedding-provider.ts';
import { HybridIndex } from '../../../server/db/retrieval/hybrid-index.ts';
import { spanishTerms } from '../../../server/language/spanish-analyzer.ts';
import { SqliteFtsIndex } from '../../../server/db/retrieval/sqlite-fts-index.ts';
import { reciprocalRankFusion } from '../../../server/rag/search/reciprocal-rank-fusion.ts';
import { memorySqliteWithOwnedTables } from '../../helpers/owned-tables.ts';

/**
 * A deterministic stand-in for an embedding model: bag of stems hashed into 64 dimensions, with a
 * small synonym table so that "reembolso" lands where "devolución" does, something BM25 cannot do.
 */
class FakeEmbedder implements EmbeddingProvider {
  readonly model = 'fake-64';
  embedded: string[] = [];
  static readonly SYNONYMS: Record<string, string> = { reembols: 'devolu', dinero: 'devolu', mensajeri: 'envi' };
  async embed(texts: string[]): Promise<number[][]> {
    this.embedded.push(...texts);
    return texts.map((text) => {
      const v = new Array<number>(64).fill(0);
      for (const term of spanishTerms(text)) {
        const concept = FakeEmbedder.SYNONYMS[term] ?? term;
        v[Number.parseInt(sha256Hex(concept).slice(0, 8), 16) % 64] += 1;
      }
      return v;
    });
  }
}

const chunk = (content: string, source: string): SourcedChunk => ({ content, hash: sha256Hex(content), source });
const DOCS = [
  chunk('La devolución de un artículo se tramita en 30 días.', 'devoluciones'),
  chunk('El envío estándar tarda de 2 a 4 días laborables.', 'envios'),
  chunk('Puede pagar con tarjeta de crédito o transferencia bancaria.', 'pagos'),
];

let db: Database.Database;
let embedder: FakeEmbedder;
let index: HybridIndex;
beforeEach(async () => {
  db = await memorySqliteWithOwnedTables();
  embedder = new FakeEmbedder();
  index = new HybridIndex(db, embedder);
});
afterEach(() => db.close());

describe('reciprocalRankFusion', () => {
  it('puts an item ranked by both lists above one ranked first by only one, keeping its best score', () => {
    const fused = reciprocalRankFusion([
      [{ key: 'a', score: 0.9 }, { key: 'b', score: 0.6 }],
      [{ key: 'b', score: 0.7 }, { key: 'c', score: 0.95 }],
    ]);
    expect(fused.map((f) => f.key)).toEqual(['b', 'a', 'c']);
    expect(fused[0]).toEqual({ key: 'b', fusion: 1 / 62 + 1 / 61, score: 0.7 });
  });
});

describe('HybridIndex', () => {
  it('finds by meaning what BM25 alone misses', async () => {
    await index.replace('k', DOCS);
    const options = { maxResults: 3, scoreThreshold: 0.3 };
    expect(await new SqliteFtsIndex(db).search('k', '¿Cómo pido un reembolso?', options)).toEqual([]);
    const results = await index.search('k', '¿Cómo pido un reembolso?', options);
    expect(results[0].source).toBe('devoluciones');
  });

  it('fuses both retrievers with 0..1 scores at or above the threshold, at most maxResults', async () => {
    await index.replace('k', DOCS);
    const results = await index.search('k', 'envío devolución tarjeta', { maxResults: 2, scoreThreshold: 0.2 });
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0.2);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(await index.search('k', 'zzz qqq', { maxResults: 5, scoreThreshold: 0.5 })).toEqual([]);
  });

  it('embeds only new hashes on re-train and prunes vectors of removed chunks', async () => {
    await index.replace('k', DOCS);
    expect(embedder.embedded).toHaveLength(3);
    embedder.embedded = [];
    const next = [DOCS[0], DOCS[1], chunk('Nuevo: cupones de descuento.', 'cupones')];
    const result = await index.replace('k', next);
    expect(result).toMatchObject({ added: 1, kept: 2, removed: 1 });
    expect(embedder.embedded).toEqual(['Nuevo: cupones de descuento.']);
    const hashes = db.prepare('SELECT hash FROM rag_vector ORDER BY hash').pluck().all();
    expect(hashes).toEqual(next.map((c) => c.hash).sort());
    await index.clear('k');
    expect(db.prepare('SELECT count(*) FROM rag_vector').pluck().get()).toBe(0);
  });
});
