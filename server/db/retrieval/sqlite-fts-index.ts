import type { Database, Statement } from 'better-sqlite3';
import { RagError } from '../../rag/rag-error.ts';
import type { ProgressCallback, SearchOptions, SearchResult, SourcedChunk } from '../../rag/rag-types.ts';
import { spanishTerms } from '../../language/spanish-analyzer.ts';
import { ANALYZER_VERSION, chunkLanguage, chunkTerms, parseLanguages, queryTerms } from '../../rag/search/index-terms.ts';
import type { SqliteWriteGate } from '../sqlite-database.ts';
import type { IndexStats, ReplaceResult, RetrievalIndex } from '../../rag/search/retrieval-index.ts';
import { CANDIDATES_PER_RESULT, checkKnowledgeId, checkSearchInput, MAX_QUERY_TERMS, uniqueByHash } from '../../rag/search/index-input.ts';
import { bm25Score, fullMatchOf, type Bm25Stats } from '../../rag/search/bm25-score.ts';

/** FTS5's bm25() floor for terms found in more than half the rows (fts5_aux.c). */
const FTS5_MIN_IDF = 1e-6;
/** Candidates FTS5 hands to the BM25 ranking at the least, whatever maxResults asks. */
const MIN_CANDIDATES = 50;

export interface SqliteFtsIndexOptions {
  /** Chunks written per transaction while training; searches run between batches. */
  batchSize?: number;
  /**
   * Runs each write transaction once the connection may write: the server's Database write gate
   * (sqliteWriteGateOf), so a training never writes while an import's bulk write or an entity
   * transaction holds SQLite's write lock. Default: at once (a handle nothing else writes on).
   */
  writeGate?: SqliteWriteGate;
}

interface KnowledgeRow {
  slot: number;
  generation: number;
  /** ANALYZER_VERSION the index was trained with (0: before languages). */
  analyzer: number;
  /** Languages of the live chunks, comma-separated; null before languages. */
  languages: string | null;
  /** Rows in the FTS table, a training's staged rows included. */
  rows: number;
  /** Live chunks (those of the current generation). */
  chunks: number;
}

/**
 * BM25 retrieval on SQLite FTS5 (better-sqlite3). Layout, all tables prefixed rag_:
 * - rag_knowledge: one row per trained knowledge: its table slot, live generation, row count.
 * - rag_chunk: every chunk (content, source, hash) with the generation that added it.
 * - rag_fts_<slot>: one FTS5 table per knowledge holding the Spanish-normalised terms, so BM25
 *   statistics (document frequency, average length) are those of that knowledge alone; its
 *   fts5vocab twin rag_fts_<slot>_vocab gives the document frequencies for score normalisation.
 *
 * Training writes new chunks in batches tagged with the next generation while searches keep
 * filtering on the live one, then swaps in one short transaction (deletes, relabels, bump). So a
 * search in this process between batches, or from another connection at any time (WAL snapshot),
 * answers from the previous index. See server/rag/README.md. rag_knowledge and rag_chunk are made
 * at start with Forja's other own tables (server/db/owned-tables.ts); the rag_fts_<slot> tables here.
 */
export class SqliteFtsIndex implements RetrievalIndex {
  readonly #db: Database;
  readonly #batchSize: number;
  readonly #write: SqliteWriteGate;
  readonly #training = new Set<string>();
  readonly #getKnowledge: Statement<[string], KnowledgeRow>;
  readonly #averageLengths = new Map<number, { generation: number; average: number }>();

  constructor(db: Database, options: SqliteFtsIndexOptions = {}) {
    this.#db = db;
    this.#batchSize = options.batchSize ?? 1000;
    this.#write = options.writeGate ?? (async (write) => write());
    this.#getKnowledge = db.prepare('SELECT slot, generation, rows, chunks, analyzer, languages FROM rag_knowledge WHERE knowledge_id = ?');
  }

  async replace(knowledgeId: string, chunks: readonly SourcedChunk[], onProgress?: ProgressCallback): Promise<ReplaceResult> {
    checkKnowledgeId(knowledgeId);
    const wanted = uniqueByHash(chunks);
    this.#lock(knowledgeId);
    try {
      const db = this.#db;
      const { slot, generation: live } = await this.#write(() => this.#ensureKnowledge(knowledgeId));
      const staging = live + 1;
      const fts = ftsTable(slot);
      await this.#write(() => this.#dropStaging(slot, live));
      await this.#write(() => this.#upgradeAnalyzer(slot));

      const existing = new Map<string, { id: number; source: string }>();
      for (const row of db.prepare('SELECT id, hash, source FROM rag_chunk WHERE slot = ?').iterate(slot) as Iterable<{
        id: number;
        hash: string;
        source: string;
      }>) {
        existing.set(row.hash, { id: row.id, source: row.source });
      }
      const toAdd: SourcedChunk[] = [];
      const relabel: Array<{ id: number; source: string }> = [];
      for (const chunk of wanted.values()) {
        const old = existing.get(chunk.hash);
        if (!old) toAdd.push(chunk);
        else if (old.source !== chunk.source) relabel.push({ id: old.id, source: chunk.source });
      }
      const removedIds: number[] = [];
      for (const [hash, row] of existing) if (!wanted.has(hash)) removedIds.push(row.id);

      const total = wanted.size;
      let done = total - toAdd.length;
      onProgress?.({ done, total });

      const insertChunk = db.prepare(
        'INSERT INTO rag_chunk (slot, generation, hash, content, source, language) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const insertTerms = db.prepare(`INSERT INTO ${fts} (rowid, terms) VALUES (?, ?)`);
      const countRows = db.prepare('UPDATE rag_knowledge SET rows = rows + ? WHERE slot = ?');
      const writeBatch = db.transaction((batch: SourcedChunk[]) => {
        for (const chunk of batch) {
          const language = chunkLanguage(chunk.content, chunk.language);
          const { lastInsertRowid } = insertChunk.run(slot, staging, chunk.hash, chunk.content, chunk.source, language);
          insertTerms.run(lastInsertRowid, chunkTerms(chunk.content, language));
        }
        countRows.run(batch.length, slot);
      });
      for (let start = 0; start < toAdd.length; start += this.#batchSize) {
        const batch = toAdd.slice(start, start + this.#batchSize);
        await this.#write(() => writeBatch(batch));
        done += batch.length;
        onProgress?.({ done, total });
        // Let searches and other requests run between batches: they still see the live generation.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }

      const deleteChunk = db.prepare('DELETE FROM rag_chunk WHERE id = ?');
      const deleteTerms = db.prepare(`DELETE FROM ${fts} WHERE rowid = ?`);
      const updateSource = db.prepare('UPDATE rag_chunk SET source = ? WHERE id = ?');
      await this.#write(db.transaction(() => {
        for (const id of removedIds) {
          deleteChunk.run(id);
          deleteTerms.run(id);
        }
        for (const { id, source } of relabel) updateSource.run(source, id);
        const languages = db.prepare('SELECT DISTINCT language FROM rag_chunk WHERE slot = ? AND language IS NOT NULL ORDER BY language').pluck().all(slot) as string[];
        db.prepare(
          'UPDATE rag_knowledge SET generation = ?, rows = rows - ?, chunks = ?, trained_at = ?, languages = ? WHERE slot = ?',
        ).run(staging, removedIds.length, total, new Date().toISOString(), languages.join(','), slot);
      }));
      return { total, added: toAdd.length, kept: total - toAdd.length, removed: removedIds.length };
    } finally {
      this.#training.delete(knowledgeId);
    }
  }

  async clear(knowledgeId: string): Promise<{ removed: number }> {
    checkKnowledgeId(knowledgeId);
    this.#lock(knowledgeId);
    try {
      const known = this.#getKnowledge.get(knowledgeId);
      if (!known) return { removed: 0 };
      const db = this.#db;
      return await this.#write(db.transaction(() => {
        const { changes } = db.prepare('DELETE FROM rag_chunk WHERE slot = ? AND generation <= ?').run(known.slot, known.generation);
        db.prepare('DELETE FROM rag_chunk WHERE slot = ?').run(known.slot);
        db.exec(`DROP TABLE IF EXISTS ${ftsTable(known.slot)}_vocab; DROP TABLE IF EXISTS ${ftsTable(known.slot)};`);
        db.prepare('DELETE FROM rag_knowledge WHERE slot = ?').run(known.slot);
        this.#averageLengths.delete(known.slot);
        return { removed: changes };
      }));
    } finally {
      this.#training.delete(knowledgeId);
    }
  }

  async search(knowledgeId: string, query: string, options: SearchOptions): Promise<SearchResult[]> {
    const { maxResults, scoreThreshold } = checkSearchInput(knowledgeId, query, options);
    const known = this.#getKnowledge.get(knowledgeId);
    if (!known || known.generation === 0) return [];
    if (known.analyzer === 0) return this.#searchLegacy(known, query, maxResults, scoreThreshold);
    const { terms, functionTerms, contentGroups, bigramTerms } = queryTerms(query, parseLanguages(known.languages));
    if (terms.length === 0) return [];
    const fts = ftsTable(known.slot);
    const docFrequency = this.#db.prepare(`SELECT doc FROM ${fts}_vocab WHERE term = ?`).pluck();
    const documentFrequency = new Map<string, number>();
    for (const term of terms) {
      const n = (docFrequency.get(term) as number | undefined) ?? 0;
      if (n > 0) documentFrequency.set(term, n);
    }
    if (documentFrequency.size === 0) return [];
    const stats: Bm25Stats = { chunks: known.rows, averageLength: this.#averageLength(known), documentFrequency, functionTerms, contentGroups, bigramTerms };
    const fullMatch = fullMatchOf(stats);
    // Each term is a quoted FTS5 string, so operators typed by users are searched as words, never
    // parsed. FTS5 picks the candidates (its own bm25 order, inside the virtual table, before any
    // join); bm25-score.ts ranks and scores them as Lucene would. Rows of a training in progress
    // (above the live generation) can take candidate places: ask for that many more.
    const match = [...documentFrequency.keys()].map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
    const staging = known.rows - known.chunks;
    const candidates = Math.max(maxResults * CANDIDATES_PER_RESULT, MIN_CANDIDATES) + staging;
    const rows = this.#db
      .prepare(
        `SELECT c.id, c.content, c.source, c.hash, m.terms
           FROM (SELECT rowid, rank, terms FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rank LIMIT ?) AS m
           JOIN rag_chunk c ON c.id = m.rowid
          WHERE c.generation <= ?
          ORDER BY m.rank, c.id`,
      )
      .all(match, candidates, known.generation) as Array<{ id: number; content: string; source: string; hash: string; terms: string }>;
    return rows
      .map((row, order) => ({ row, order, ...bm25Score(row.terms, stats, fullMatch) }))
      .filter(({ score }) => score >= scoreThreshold)
      .sort((a, b) => b.rank - a.rank || a.order - b.order)
      .slice(0, maxResults)
      .map(({ row, score }) => ({ content: row.content, score, source: row.source, hash: row.hash }));
  }

  /** Average length in terms of the live chunks, computed once per trained generation. */
  #averageLength(known: KnowledgeRow): number {
    const cached = this.#averageLengths.get(known.slot);
    if (cached && cached.generation === known.generation) return cached.average;
    const average = (this.#db
      .prepare(
        `SELECT avg(length(f.terms) - length(replace(f.terms, ' ', '')) + 1) FROM ${ftsTable(known.slot)} f
           JOIN rag_chunk c ON c.id = f.rowid WHERE c.generation <= ?`,
      )
      .pluck()
      .get(known.generation) as number | null) ?? 1;
    this.#averageLengths.set(known.slot, { generation: known.generation, average });
    return average;
  }

  /** An index trained before languages: Spanish terms, FTS5's bm25 (as it was searched then). */
  #searchLegacy(known: KnowledgeRow, query: string, maxResults: number, scoreThreshold: number): SearchResult[] {
    const terms = [...new Set(spanishTerms(query))].slice(0, MAX_QUERY_TERMS);
    if (terms.length === 0) return [];
    const fts = ftsTable(known.slot);
    const docFrequency = this.#db.prepare(`SELECT doc FROM ${fts}_vocab WHERE term = ?`).pluck();
    let fullMatch = 0;
    for (const term of terms) {
      const n = (docFrequency.get(term) as number | undefined) ?? 0;
      if (n > 0) fullMatch += Math.max(Math.log((known.rows - n + 0.5) / (n + 0.5)), FTS5_MIN_IDF);
    }
    if (fullMatch === 0) return [];
    const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
    const staging = known.rows - known.chunks;
    const rows = this.#db
      .prepare(
        `SELECT c.content, c.source, c.hash, -m.rank AS relevance
           FROM (SELECT rowid, rank FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rank LIMIT ?) AS m
           JOIN rag_chunk c ON c.id = m.rowid
          WHERE c.generation <= ? AND -m.rank >= ?
          ORDER BY m.rank, c.id
          LIMIT ?`,
      )
      .all(match, maxResults + staging, known.generation, scoreThreshold * fullMatch, maxResults) as Array<{
      content: string;
      source: string;
      hash: string;
      relevance: number;
    }>;
    return rows.map((row) => ({
      content: row.content,
      score: Math.min(1, row.relevance / fullMatch),
      source: row.source,
      hash: row.hash,
    }));
  }

  async stats(knowledgeId: string): Promise<IndexStats> {
    checkKnowledgeId(knowledgeId);
    const row = this.#db
      .prepare('SELECT generation, chunks, trained_at AS trainedAt FROM rag_knowledge WHERE knowledge_id = ?')
      .get(knowledgeId) as IndexStats | undefined;
    return row ?? { chunks: 0, generation: 0, trainedAt: null };
  }

  /** One training or clearing per knowledge at a time in this process; a second is a 409. */
  #lock(knowledgeId: string): void {
    if (this.#training.has(knowledgeId)) {
      throw new RagError('trainingInProgress', `knowledge ${knowledgeId} is already being trained or cleared`);
    }
    this.#training.add(knowledgeId);
  }

  #ensureKnowledge(knowledgeId: string): KnowledgeRow {
    const db = this.#db;
    return db.transaction(() => {
      let row = this.#getKnowledge.get(knowledgeId);
      if (!row) {
        const slot = ((db.prepare('SELECT max(slot) FROM rag_knowledge').pluck().get() as number | null) ?? 0) + 1;
        db.prepare('INSERT INTO rag_knowledge (knowledge_id, slot, analyzer) VALUES (?, ?, ?)').run(knowledgeId, slot, ANALYZER_VERSION);
        row = { slot, generation: 0, rows: 0, chunks: 0, analyzer: ANALYZER_VERSION, languages: null };
      }
      createFtsTables(db, row.slot);
      return row;
    })();
  }

  /**
   * An index trained with an older analysis cannot keep chunks by hash (their stored terms are the
   * old ones): it is emptied once, and this training fills it anew. Searches find nothing until
   * that training swaps in; it happens once per knowledge after an upgrade.
   */
  #upgradeAnalyzer(slot: number): void {
    const db = this.#db;
    const row = db.prepare('SELECT analyzer FROM rag_knowledge WHERE slot = ?').get(slot) as { analyzer: number } | undefined;
    if (!row || row.analyzer >= ANALYZER_VERSION) return;
    db.transaction(() => {
      db.prepare('DELETE FROM rag_chunk WHERE slot = ?').run(slot);
      db.exec(`DELETE FROM ${ftsTable(slot)}`);
      db.prepare('UPDATE rag_knowledge SET rows = 0, chunks = 0, analyzer = ?, languages = NULL WHERE slot = ?').run(ANALYZER_VERSION, slot);
    })();
  }

  /** Removes what an interrupted training (crash, thrown error) left above the live generation. */
  #dropStaging(slot: number, live: number): void {
    const db = this.#db;
    db.transaction(() => {
      const ids = db.prepare('SELECT id FROM rag_chunk WHERE slot = ? AND generation > ?').pluck().all(slot, live) as number[];
      if (ids.length === 0) return;
      const deleteTerms = db.prepare(`DELETE FROM ${ftsTable(slot)} WHERE rowid = ?`);
      for (const id of ids) deleteTerms.run(id);
      db.prepare('DELETE FROM rag_chunk WHERE slot = ? AND generation > ?').run(slot, live);
      db.prepare('UPDATE rag_knowledge SET rows = rows - ? WHERE slot = ?').run(ids.length, slot);
    })();
  }
}

/** The FTS5 table of a knowledge slot and its fts5vocab twin (document frequencies), unless they exist. */
function createFtsTables(db: Database, slot: number): string {
  const fts = ftsTable(slot);
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS ${fts} USING fts5(terms, tokenize = 'unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE IF NOT EXISTS ${fts}_vocab USING fts5vocab(${fts}, 'row');
  `);
  return fts;
}

/**
 * For rows written into rag_knowledge and rag_chunk by `npm run db:copy`: fills each knowledge's
 * FTS5 table with its chunks' terms (in each chunk's language; an index trained before languages
 * keeps its Spanish terms, as SqliteFtsIndex searches it so), so the copy answers without a
 * retraining. Answers the FTS5 tables filled.
 */
export function indexCopiedChunks(db: Database): string[] {
  const filled: string[] = [];
  for (const slot of db.prepare('SELECT slot FROM rag_knowledge').pluck().all() as number[]) {
    const fts = createFtsTables(db, Number(slot));
    const insert = db.prepare(`INSERT INTO ${fts} (rowid, terms) VALUES (?, ?)`);
    const setLanguage = db.prepare('UPDATE rag_chunk SET language = ? WHERE id = ?');
    const legacy = db.prepare('SELECT analyzer FROM rag_knowledge WHERE slot = ?').pluck().get(slot) === 0;
    db.transaction(() => {
      for (const row of db.prepare('SELECT id, content, language FROM rag_chunk WHERE slot = ?').all(slot) as Array<{ id: number; content: string; language: string | null }>) {
        if (legacy) {
          insert.run(row.id, spanishTerms(row.content).join(' '));
          continue;
        }
        const language = chunkLanguage(row.content, row.language);
        if (language !== row.language) setLanguage.run(language, row.id);
        insert.run(row.id, chunkTerms(row.content, language));
      }
    })();
    filled.push(fts);
  }
  return filled;
}

/** Table names come from an integer slot, never from user input. */
function ftsTable(slot: number): string {
  return `rag_fts_${slot}`;
}

