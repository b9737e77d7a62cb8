import type { Database } from 'better-sqlite3';
import type { SearchResult } from '../../rag/rag-types.ts';

/**
 * Chunk embeddings in SQLite, keyed by (knowledge, chunk hash, model) so an unchanged chunk is
 * never embedded twice, stored as Float32 BLOBs and searched by brute-force cosine over the live
 * chunks of one knowledge. Linear in the knowledge's size (every vector is read per query), which
 * suits knowledge bases of thousands of chunks; sqlite-vec or pgvector would replace the scan
 * behind the same methods. The table is made at start (server/db/owned-tables.ts).
 */
export class SqliteVectorStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Of these hashes, those without a vector for `model` yet. */
  missing(knowledgeId: string, model: string, hashes: readonly string[]): string[] {
    const has = this.#db.prepare('SELECT 1 FROM rag_vector WHERE knowledge_id = ? AND hash = ? AND model = ?').pluck();
    return hashes.filter((hash) => has.get(knowledgeId, hash, model) === undefined);
  }

  put(knowledgeId: string, model: string, entries: ReadonlyArray<{ hash: string; vector: number[] }>): void {
    const insert = this.#db.prepare('INSERT OR REPLACE INTO rag_vector (knowledge_id, hash, model, vector) VALUES (?, ?, ?, ?)');
    this.#db.transaction(() => {
      for (const { hash, vector } of entries) insert.run(knowledgeId, hash, model, toBlob(vector));
    })();
  }

  /** Drops vectors whose hash is no longer among the knowledge's chunks (any model). */
  prune(knowledgeId: string): void {
    this.#db
      .prepare(
        `DELETE FROM rag_vector WHERE knowledge_id = ? AND hash NOT IN (
           SELECT c.hash FROM rag_chunk c JOIN rag_knowledge k ON k.slot = c.slot WHERE k.knowledge_id = ?)`,
      )
      .run(knowledgeId, knowledgeId);
  }

  clear(knowledgeId: string): void {
    this.#db.prepare('DELETE FROM rag_vector WHERE knowledge_id = ?').run(knowledgeId);
  }

  /** Live chunks by cosine similarity to `query`, best first, cosine clamped to 0..1. */
  search(knowledgeId: string, model: string, query: number[], limit: number): SearchResult[] {
    const q = normalise(Float32Array.from(query));
    const rows = this.#db
      .prepare(
        `SELECT c.content, c.source, c.hash, v.vector
           FROM rag_knowledge k
           JOIN rag_chunk c ON c.slot = k.slot AND c.generation <= k.generation
           JOIN rag_vector v ON v.knowledge_id = k.knowledge_id AND v.hash = c.hash AND v.model = ?
          WHERE k.knowledge_id = ?`,
      )
      .iterate(model, knowledgeId) as Iterable<{ content: string; source: string; hash: string; vector: Buffer }>;
    const best: SearchResult[] = [];
    for (const row of rows) {
      const v = fromBlob(row.vector);
      if (v.length !== q.length) continue;
      let dot = 0;
      let norm = 0;
      for (let i = 0; i < v.length; i += 1) {
        dot += v[i] * q[i];
        norm += v[i] * v[i];
      }
      const score = norm === 0 ? 0 : Math.max(0, Math.min(1, dot / Math.sqrt(norm)));
      if (best.length < limit || score > best[best.length - 1].score) {
        best.push({ content: row.content, source: row.source, hash: row.hash, score });
        best.sort((a, b) => b.score - a.score);
        if (best.length > limit) best.pop();
      }
    }
    return best;
  }
}

function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
  return v.map((x) => x * scale);
}

function toBlob(vector: number[]): Buffer {
  const f = Float32Array.from(vector);
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength);
}

function fromBlob(blob: Buffer): Float32Array {
  // Copy: SQLite's buffer need not be 4-byte aligned.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
