import type pg from 'pg';
import { RagError } from '../../rag/rag-error.ts';
import type { ProgressCallback, SearchOptions, SearchResult, SourcedChunk } from '../../rag/rag-types.ts';
import type { IndexStats, ReplaceResult, RetrievalIndex } from '../../rag/search/retrieval-index.ts';
import { checkKnowledgeId, checkSearchInput, uniqueByHash } from '../../rag/search/index-input.ts';
import { bm25Score, fullMatchOf, type Bm25Stats } from '../../rag/search/bm25-score.ts';
import { ANALYZER_VERSION, chunkLanguage, chunkTerms, parseLanguages, queryTerms } from '../../rag/search/index-terms.ts';

/** Candidates ranked by ts_rank_cd in SQL per result asked for (at least MIN_CANDIDATES), before BM25 in JS. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 50;
/** Chunks analysed per statement when an index from before languages is brought up to date. */
const BACKFILL_BATCH = 500;

/**
 * Full-text retrieval on PostgreSQL (tsvector + GIN), the same RetrievalIndex as SqliteFtsIndex and
 * the same tables (rag_knowledge, rag_chunk, so `npm run db:copy` moves a trained index as it is):
 * rag_chunk holds each chunk's language and its `terms` from that language's analyzer
 * (server/language, the same as SQLite's), and a generated `tsv` column, to_tsvector('simple',
 * terms). An index from before languages (tsv over the content through `forja_es`) is brought up
 * to date once: its columns at start (server/db/owned-tables.ts), its terms by the first instance
 * to use the index (ready()).
 *
 * Score (0..1, the same as the SQLite index's): the GIN index finds candidates, ranked in SQL by
 * ts_rank_cd; bm25-score.ts ranks and scores them by BM25 over their stored terms, with document
 * frequencies counted among the live chunks.
 *
 * Several instances: training and clearing hold a PostgreSQL advisory lock per knowledge for
 * their whole run, so a second instance asked to train the same knowledge answers 409 instead of
 * interleaving writes. Training writes the next generation in batches and swaps in one
 * transaction, so searches on any instance see the previous content until the swap.
 */
export class PostgresFtsIndex implements RetrievalIndex {
  readonly #pool: pg.Pool;
  readonly #batchSize: number;
  readonly #averageLengths = new Map<string, { generation: number; average: number }>();
  #ready: Promise<void> | null = null;

  constructor(pool: pg.Pool, options: { batchSize?: number } = {}) {
    this.#pool = pool;
    this.#batchSize = options.batchSize ?? 500;
  }

  /**
   * Analyses the chunks that have no terms yet, once per process, serialised across instances: an
   * index from before languages (its columns were added at start, server/db/owned-tables.ts) is
   * brought up to date by the first instance; later starts find nothing to do.
   */
  ready(): Promise<void> {
    this.#ready ??= this.analyseCopiedChunks().then(() => {});
    this.#ready.catch(() => (this.#ready = null));
    return this.#ready;
  }

  async replace(knowledgeId: string, chunks: readonly SourcedChunk[], onProgress?: ProgressCallback): Promise<ReplaceResult> {
    checkKnowledgeId(knowledgeId);
    const wanted = uniqueByHash(chunks);
    await this.ready();
    return this.#locked(knowledgeId, async (client) => {
      const known = await this.#ensureKnowledge(client, knowledgeId);
      const { slot } = known;
      const live = Number(known.generation);
      const staging = live + 1;
      // What an interrupted training left above the live generation.
      await client.query('DELETE FROM rag_chunk WHERE slot = $1 AND generation > $2', [slot, live]);
      const existing = new Map<string, { id: string; source: string }>();
      for (const row of (await client.query('SELECT id, hash, source FROM rag_chunk WHERE slot = $1', [slot])).rows) {
        existing.set(row.hash, { id: String(row.id), source: row.source });
      }
      const toAdd: SourcedChunk[] = [];
      const relabel: Array<{ id: string; source: string }> = [];
      for (const chunk of wanted.values()) {
        const old = existing.get(chunk.hash);
        if (!old) toAdd.push(chunk);
        else if (old.source !== chunk.source) relabel.push({ id: old.id, source: chunk.source });
      }
      const removedIds: string[] = [];
      for (const [hash, row] of existing) if (!wanted.has(hash)) removedIds.push(row.id);
      const total = wanted.size;
      let done = total - toAdd.length;
      onProgress?.({ done, total });
      for (let start = 0; start < toAdd.length; start += this.#batchSize) {
        const batch = toAdd.slice(start, start + this.#batchSize);
        const languages = batch.map((c) => chunkLanguage(c.content, c.language));
        await client.query(
          `INSERT INTO rag_chunk (slot, generation, hash, content, source, language, terms)
           SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
          [slot, staging, batch.map((c) => c.hash), batch.map((c) => c.content), batch.map((c) => c.source), languages,
            batch.map((c, i) => chunkTerms(c.content, languages[i]))],
        );
        done += batch.length;
        onProgress?.({ done, total });
      }
      await client.query('BEGIN');
      try {
        if (removedIds.length > 0) await client.query('DELETE FROM rag_chunk WHERE id = ANY($1::bigint[])', [removedIds]);
        for (const { id, source } of relabel) await client.query('UPDATE rag_chunk SET source = $1 WHERE id = $2', [source, id]);
        await client.query(
          `UPDATE rag_knowledge SET generation = $1, chunks = $2, trained_at = $3,
             rows = (SELECT count(*) FROM rag_chunk WHERE slot = $4),
             languages = (SELECT string_agg(DISTINCT language, ',' ORDER BY language) FROM rag_chunk WHERE slot = $4)
           WHERE slot = $4`,
          [staging, total, new Date().toISOString(), slot],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
      return { total, added: toAdd.length, kept: total - toAdd.length, removed: removedIds.length };
    });
  }

  async clear(knowledgeId: string): Promise<{ removed: number }> {
    checkKnowledgeId(knowledgeId);
    await this.ready();
    return this.#locked(knowledgeId, async (client) => {
      const known = (await client.query('SELECT slot, generation FROM rag_knowledge WHERE knowledge_id = $1', [knowledgeId])).rows[0];
      if (!known) return { removed: 0 };
      await client.query('BEGIN');
      try {
        const live = await client.query('DELETE FROM rag_chunk WHERE slot = $1 AND generation <= $2', [known.slot, known.generation]);
        await client.query('DELETE FROM rag_chunk WHERE slot = $1', [known.slot]);
        await client.query('DELETE FROM rag_knowledge WHERE slot = $1', [known.slot]);
        await client.query('COMMIT');
        return { removed: live.rowCount ?? 0 };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  async search(knowledgeId: string, query: string, options: SearchOptions): Promise<SearchResult[]> {
    const { maxResults, scoreThreshold } = checkSearchInput(knowledgeId, query, options);
    await this.ready();
    const known = (await this.#pool.query('SELECT slot, generation, languages FROM rag_knowledge WHERE knowledge_id = $1', [knowledgeId])).rows[0];
    if (!known || Number(known.generation) === 0) return [];
    // The question's terms in every language of the base (index-terms.ts), as the chunks' were made.
    const { terms: lexemes, functionTerms, contentGroups, bigramTerms } = queryTerms(query, parseLanguages(known.languages));
    if (lexemes.length === 0) return [];
    // Document frequencies among live chunks (GIN index per lexeme) and the live chunk count.
    const stats = (
      await this.#pool.query(
        `SELECT l.lexeme, (SELECT count(*) FROM rag_chunk c WHERE c.slot = $1 AND c.generation <= $2 AND c.tsv @@ tsquery(quote_literal(l.lexeme))) AS n
           FROM unnest($3::text[]) AS l(lexeme)`,
        [known.slot, known.generation, lexemes],
      )
    ).rows as Array<{ lexeme: string; n: number }>;
    const chunkCount = Number(
      (await this.#pool.query('SELECT count(*) AS n FROM rag_chunk WHERE slot = $1 AND generation <= $2', [known.slot, known.generation])).rows[0].n,
    );
    const documentFrequency = new Map<string, number>();
    for (const { lexeme, n } of stats) if (Number(n) > 0) documentFrequency.set(lexeme, Number(n));
    if (documentFrequency.size === 0) return [];
    const bm25: Bm25Stats = { chunks: chunkCount, averageLength: await this.#averageLength(known.slot, Number(known.generation)), documentFrequency, functionTerms, contentGroups, bigramTerms };
    const fullMatch = fullMatchOf(bm25);
    // OR of the terms, quoted so operators typed by users are words, never tsquery syntax. The GIN
    // index picks candidates (ts_rank_cd order); bm25-score.ts ranks and scores them, as on SQLite.
    const tsquery = [...documentFrequency.keys()].map((l) => `'${l.replaceAll("'", "''")}'`).join(' | ');
    const rows = (
      await this.#pool.query(
        `SELECT content, source, hash, terms, ts_rank_cd(tsv, q) AS rank
           FROM rag_chunk, CAST($3 AS tsquery) AS q
          WHERE slot = $1 AND generation <= $2 AND tsv @@ q
          ORDER BY rank DESC, id
          LIMIT $4`,
        [known.slot, known.generation, tsquery, Math.max(maxResults * CANDIDATES_PER_RESULT, MIN_CANDIDATES)],
      )
    ).rows as Array<{ content: string; source: string; hash: string; terms: string | null; rank: number }>;
    return rows
      .map((row, order) => ({ row, order, ...bm25Score(row.terms ?? '', bm25, fullMatch) }))
      .filter(({ score }) => score >= scoreThreshold)
      .sort((a, b) => b.rank - a.rank || a.order - b.order)
      .slice(0, maxResults)
      .map(({ row, score }) => ({ content: row.content, score, source: row.source, hash: row.hash }));
  }

  /** Average length in terms of a base's live chunks, once per trained generation (immutable once live). */
  async #averageLength(slot: string, generation: number): Promise<number> {
    const cached = this.#averageLengths.get(slot);
    if (cached && cached.generation === generation) return cached.average;
    const average = Number(
      (await this.#pool.query(
        `SELECT avg(length(terms) - length(replace(terms, ' ', '')) + 1) AS average FROM rag_chunk WHERE slot = $1 AND generation <= $2 AND terms <> ''`,
        [slot, generation],
      )).rows[0].average ?? 1,
    );
    this.#averageLengths.set(slot, { generation, average });
    return average;
  }

  async stats(knowledgeId: string): Promise<IndexStats> {
    checkKnowledgeId(knowledgeId);
    await this.ready();
    const row = (
      await this.#pool.query('SELECT generation, chunks, trained_at AS "trainedAt" FROM rag_knowledge WHERE knowledge_id = $1', [knowledgeId])
    ).rows[0];
    return row ? { generation: Number(row.generation), chunks: Number(row.chunks), trainedAt: row.trainedAt ?? null } : { chunks: 0, generation: 0, trainedAt: null };
  }

  /**
   * Analyses the chunks that have no terms yet (an index from before languages, or rows copied in
   * by `npm run db:copy` from SQLite, which keeps its terms elsewhere), then records each base's languages.
   */
  async #analyseMissing(client: pg.PoolClient): Promise<number> {
    let analysed = 0;
    for (;;) {
      const rows = (await client.query(`SELECT id, content, language FROM rag_chunk WHERE terms IS NULL ORDER BY id LIMIT ${BACKFILL_BATCH}`)).rows as Array<{ id: string; content: string; language: string | null }>;
      if (rows.length === 0) break;
      const languages = rows.map((r) => chunkLanguage(r.content, r.language));
      await client.query(
        `UPDATE rag_chunk c SET language = u.language, terms = u.terms
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, language, terms) WHERE c.id = u.id`,
        [rows.map((r) => r.id), languages, rows.map((r, i) => chunkTerms(r.content, languages[i]))],
      );
      analysed += rows.length;
    }
    if (analysed > 0) {
      await client.query(
        `UPDATE rag_knowledge k SET analyzer = ${ANALYZER_VERSION},
           languages = (SELECT string_agg(DISTINCT language, ',' ORDER BY language) FROM rag_chunk c WHERE c.slot = k.slot)`,
      );
    }
    return analysed;
  }

  /**
   * Analyses the chunks that have no terms yet, under the index's advisory lock (ready(), and
   * `npm run db:copy` for chunks copied in from SQLite); returns how many.
   */
  async analyseCopiedChunks(): Promise<number> {
    return this.#withClient(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('forja:rag:schema'))");
        const analysed = await this.#analyseMissing(client);
        await client.query('COMMIT');
        return analysed;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  async #withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }

  /** One training or clearing per knowledge across every instance (session advisory lock); a second is a 409. */
  #locked<T>(knowledgeId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.#withClient(async (client) => {
      const key = `forja:rag:train:${knowledgeId}`;
      const { rows } = await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
      if (!rows[0].locked) throw new RagError('trainingInProgress', `knowledge ${knowledgeId} is already being trained or cleared`);
      try {
        return await work(client);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {});
      }
    });
  }

  async #ensureKnowledge(client: pg.PoolClient, knowledgeId: string): Promise<{ slot: string; generation: number }> {
    await client.query(
      `INSERT INTO rag_knowledge (knowledge_id, slot)
       SELECT $1, COALESCE(max(slot), 0) + 1 FROM rag_knowledge
       ON CONFLICT (knowledge_id) DO NOTHING`,
      [knowledgeId],
    );
    return (await client.query('SELECT slot, generation FROM rag_knowledge WHERE knowledge_id = $1', [knowledgeId])).rows[0];
  }
}

