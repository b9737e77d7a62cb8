import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/rag/chunk/sha256-hex.ts';
import type { SourcedChunk } from '../../server/rag/rag-types.ts';
import type { RetrievalIndex } from '../../server/rag/search/retrieval-index.ts';
import { PostgresFtsIndex } from '../../server/db/retrieval/postgres-fts-index.ts';
import { SqliteFtsIndex } from '../../server/db/retrieval/sqlite-fts-index.ts';
import { spanishTerms } from '../../server/language/spanish-analyzer.ts';
import type { Language } from '../../server/language/language-analyzers.ts';
import { readQaSet } from '../helpers/multilingual-retrieval.ts';
import { memorySqliteWithOwnedTables, withOwnedTables } from '../helpers/owned-tables.ts';
import { createTestPostgresDatabase, dropTestPostgresDatabase, TEST_BACKEND } from './helpers/test-database.ts';

/**
 * Retrieval in several languages on the engine this project runs on (SQLite in `api`,
 * PostgreSQL in `api-postgres`): the same analyzers, the same BM25, so the same ranking and
 * scores; and an index trained before languages keeps answering, then is rebuilt by a training.
 */
const LANGUAGES: Language[] = ['es', 'en', 'zh', 'th', 'hi', 'vi', 'ar', 'ko'];
const chunks = (language: Language): SourcedChunk[] =>
  readQaSet(language).items.map((item, i) => ({ content: item.context, hash: sha256Hex(item.context), source: `${language}#${i}` }));

let index: RetrievalIndex;
let reference: SqliteFtsIndex;
let pool: pg.Pool | null = null;
let databaseUrl = '';

beforeAll(async () => {
  reference = new SqliteFtsIndex(await memorySqliteWithOwnedTables());
  if (TEST_BACKEND === 'postgres') {
    databaseUrl = await createTestPostgresDatabase();
    pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    index = new PostgresFtsIndex(await withOwnedTables(pool));
  } else {
    index = new SqliteFtsIndex(await memorySqliteWithOwnedTables());
  }
});
afterAll(async () => {
  await pool?.end();
  if (databaseUrl) await dropTestPostgresDatabase(databaseUrl);
});

describe(`retrieval in several languages (${TEST_BACKEND})`, () => {
  it('ranks and scores exactly as the SQLite reference, in every language and in a mixed base', async () => {
    const all = LANGUAGES.flatMap(chunks);
    await index.replace('mixed', all);
    await reference.replace('mixed', all);
    for (const language of LANGUAGES) {
      await index.replace(language, chunks(language));
      await reference.replace(language, chunks(language));
      for (const [i, item] of readQaSet(language).items.entries()) {
        for (const question of item.questions) {
          for (const knowledge of [language, 'mixed']) {
            const got = await index.search(knowledge, question, { maxResults: 3, scoreThreshold: 0 });
            const want = await reference.search(knowledge, question, { maxResults: 3, scoreThreshold: 0 });
            expect(got.map((r) => r.source), `${knowledge}: ${question}`).toEqual(want.map((r) => r.source));
            got.forEach((r, k) => expect(r.score).toBeCloseTo(want[k].score, 9));
          }
          void i;
        }
      }
    }
  });

  it('answers Chinese and Thai questions with their own paragraph', async () => {
    for (const language of ['zh', 'th'] as const) {
      let right = 0;
      let total = 0;
      for (const [i, item] of readQaSet(language).items.entries()) {
        for (const question of item.questions) {
          total++;
          const [top] = await index.search(language, question, { maxResults: 1, scoreThreshold: 0 });
          if (top?.source === `${language}#${i}`) right++;
        }
      }
      expect(right / total, language).toBeGreaterThanOrEqual(0.85);
    }
  });

  it('takes the language a source or base chooses over detection', async () => {
    // A Portuguese sentence declared Spanish is analysed (and found) as Spanish.
    const text = 'As devoluções são gratuitas durante trinta dias.';
    await index.replace('declared', [{ content: text, hash: sha256Hex(text), source: 'declared', language: 'es' }]);
    const [hit] = await index.search('declared', 'devoluciones gratuitas', { maxResults: 1, scoreThreshold: 0 });
    expect(hit?.source).toBe('declared');
  });

  it('searches text in a script no analyzer knows (by its words)', async () => {
    const text = 'ქართული ენა მშვენიერია და ძველია';
    await index.replace('georgian', [{ content: text, hash: sha256Hex(text), source: 'ka' }, { content: 'Otra cosa distinta', hash: sha256Hex('Otra cosa distinta'), source: 'es' }]);
    const [hit] = await index.search('georgian', 'ენა', { maxResults: 1, scoreThreshold: 0 });
    expect(hit?.source).toBe('ka');
  });
});

describe.runIf(TEST_BACKEND === 'sqlite')('an index trained before languages (SQLite)', () => {
  it('keeps answering the old way, then a training rebuilds it with the analyzers', async () => {
    const db = new Database(':memory:');
    // The tables as they were: no analyzer, languages or language columns; Spanish terms.
    db.exec(`
      CREATE TABLE rag_knowledge (knowledge_id TEXT PRIMARY KEY, slot INTEGER NOT NULL UNIQUE, generation INTEGER NOT NULL DEFAULT 0,
        rows INTEGER NOT NULL DEFAULT 0, chunks INTEGER NOT NULL DEFAULT 0, trained_at TEXT);
      CREATE TABLE rag_chunk (id INTEGER PRIMARY KEY, slot INTEGER NOT NULL, generation INTEGER NOT NULL, hash TEXT NOT NULL,
        content TEXT NOT NULL, source TEXT NOT NULL, UNIQUE (slot, hash));
      CREATE VIRTUAL TABLE rag_fts_1 USING fts5(terms, tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE rag_fts_1_vocab USING fts5vocab(rag_fts_1, 'row');
      INSERT INTO rag_knowledge VALUES ('old', 1, 1, 2, 2, '2026-01-01');
    `);
    const old = ['La política de devoluciones permite devolver artículos durante 30 días.', '退货政策是什么'];
    old.forEach((content, i) => {
      db.prepare('INSERT INTO rag_chunk VALUES (?, 1, 1, ?, ?, ?)').run(i + 1, sha256Hex(content), content, `old#${i}`);
      db.prepare('INSERT INTO rag_fts_1 (rowid, terms) VALUES (?, ?)').run(i + 1, spanishTerms(content).join(' '));
    });
    // A start brings the tables up to date (server/db/owned-tables.ts).
    const legacy = new SqliteFtsIndex(await withOwnedTables(db));
    expect((await legacy.search('old', 'devolucion', { maxResults: 1, scoreThreshold: 0 }))[0]?.source).toBe('old#0');
    // Chinese was one long token then: a part of it found nothing.
    expect(await legacy.search('old', '退货', { maxResults: 1, scoreThreshold: 0 })).toEqual([]);
    await legacy.replace('old', old.map((content, i) => ({ content, hash: sha256Hex(content), source: `old#${i}` })));
    expect((await legacy.search('old', '退货', { maxResults: 1, scoreThreshold: 0 }))[0]?.source).toBe('old#1');
    expect((await legacy.search('old', 'devolucion', { maxResults: 1, scoreThreshold: 0 }))[0]?.source).toBe('old#0');
    expect(db.prepare("SELECT analyzer, languages FROM rag_knowledge WHERE knowledge_id = 'old'").get()).toEqual({ analyzer: 1, languages: 'es,zh' });
    db.close();
  });
});

describe.runIf(TEST_BACKEND === 'postgres')('an index trained before languages (PostgreSQL)', () => {
  it('is brought up to date at start: every chunk analysed in its language, searches answer at once', async () => {
    const url = await createTestPostgresDatabase();
    const legacyPool = new pg.Pool({ connectionString: url, max: 2 });
    try {
      // The tables as they were: tsv over the content, no terms or languages.
      await legacyPool.query(`
        CREATE TABLE rag_knowledge (knowledge_id TEXT PRIMARY KEY, slot BIGINT NOT NULL UNIQUE, generation BIGINT NOT NULL DEFAULT 0,
          rows BIGINT NOT NULL DEFAULT 0, chunks BIGINT NOT NULL DEFAULT 0, trained_at TEXT);
        CREATE TABLE rag_chunk (id BIGSERIAL PRIMARY KEY, slot BIGINT NOT NULL, generation BIGINT NOT NULL, hash TEXT NOT NULL,
          content TEXT NOT NULL, source TEXT NOT NULL, tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED, UNIQUE (slot, hash));
        CREATE INDEX rag_chunk_tsv ON rag_chunk USING GIN (tsv);
        INSERT INTO rag_knowledge VALUES ('old', 1, 1, 3, 3, '2026-01-01');`);
      const old = ['La política de devoluciones permite devolver artículos durante 30 días.', '退货政策是什么', 'Shipping is free for orders over 50 euros.'];
      for (const [i, content] of old.entries()) {
        await legacyPool.query('INSERT INTO rag_chunk (slot, generation, hash, content, source) VALUES (1, 1, $1, $2, $3)', [sha256Hex(content), content, `old#${i}`]);
      }
      // A start brings the tables up to date (server/db/owned-tables.ts), the index the terms.
      const upgraded = new PostgresFtsIndex(await withOwnedTables(legacyPool));
      expect((await upgraded.search('old', '退货', { maxResults: 1, scoreThreshold: 0 }))[0]?.source).toBe('old#1');
      expect((await upgraded.search('old', 'devolucion', { maxResults: 1, scoreThreshold: 0 }))[0]?.source).toBe('old#0');
      expect((await upgraded.search('old', 'How much is shipping?', { maxResults: 1, scoreThreshold: 0 }))[0]?.source).toBe('old#2');
      const { rows } = await legacyPool.query("SELECT languages FROM rag_knowledge WHERE knowledge_id = 'old'");
      expect(rows[0].languages).toBe('en,es,zh');
      // A second instance starting later finds nothing left to do.
      const again = new PostgresFtsIndex(await withOwnedTables(legacyPool));
      await again.ready();
      expect((await legacyPool.query('SELECT count(*)::int AS n FROM rag_chunk WHERE terms IS NULL')).rows[0].n).toBe(0);
    } finally {
      await legacyPool.end();
      await dropTestPostgresDatabase(url);
    }
  });
});
