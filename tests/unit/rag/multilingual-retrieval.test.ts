import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../server/rag/chunk/sha256-hex.ts';
import { SqliteFtsIndex } from '../../../server/db/retrieval/sqlite-fts-index.ts';
import { QA_DIR, QA_LANGUAGES, readQaSet, scoreLanguage, scoreMixedBase, type RetrievalScore } from '../../helpers/multilingual-retrieval.ts';
import { memorySqliteWithOwnedTables } from '../../helpers/owned-tables.ts';

/**
 * Retrieval in every language against the floor (shared/retrieval/bm25_lang.py: BM25 with a
 * per-language analyzer), whose figures on these same sets `npm run bench:rag -- --write-floor`
 * records in tests/fixtures/multilingual-qa/floor.json.
 */
const floor = JSON.parse(fs.readFileSync(path.join(QA_DIR, 'floor.json'), 'utf8')) as Record<string, RetrievalScore>;

describe('retrieval in every language', () => {
  it('has a question set and a floor figure for 17 languages', () => {
    expect(QA_LANGUAGES).toHaveLength(17);
    for (const language of QA_LANGUAGES) expect(floor[language], language).toBeDefined();
  });

  it('is never below the floor in recall@1, and above it on average', async () => {
    let ours = 0;
    let theirs = 0;
    for (const language of QA_LANGUAGES) {
      const score = await scoreLanguage(language);
      expect(score.recallAt1, `${language}: recall@1 ${score.recallAt1} < floor ${floor[language].recallAt1}`).toBeGreaterThanOrEqual(floor[language].recallAt1 - 0.0005); // the floor prints 3 decimals
      ours += score.recallAt1;
      theirs += floor[language].recallAt1;
    }
    expect(ours / QA_LANGUAGES.length).toBeGreaterThan(theirs / QA_LANGUAGES.length);
  });

  it('answers Chinese and Thai questions (text without spaces between words)', async () => {
    for (const language of ['zh', 'th', 'ja'] as const) expect((await scoreLanguage(language)).recallAt1, language).toBeGreaterThanOrEqual(0.75);
  });

  it('works in one base holding all 17 languages: each question still finds its own paragraph', async () => {
    const mixed = await scoreMixedBase();
    for (const language of QA_LANGUAGES) {
      const score = mixed.get(language)!;
      expect(score.recallAt5, language).toBeGreaterThanOrEqual(0.75);
      expect(score.recallAt1, language).toBeGreaterThanOrEqual(0.5);
    }
  });
});

describe('an off-topic question', () => {
  it('that shares only function words with a base scores 0 in every language, so it is never an answer', async () => {
    const offTopic: Record<string, string> = {
      en: 'Who won the world cup in 2010?',
      de: 'Wer hat die Weltmeisterschaft in 2010 gewonnen?',
      fr: 'Qui a gagné la coupe du monde en 2010 ?',
      it: 'Chi ha vinto la coppa del mondo nel 2010?',
      pt: 'Quem ganhou o campeonato do mundo em 2010?',
      ru: 'Кто выиграл чемпионат мира по футболу?',
    };
    for (const [language, question] of Object.entries(offTopic)) {
      const set = readQaSet(language as never);
      const index = new SqliteFtsIndex(await memorySqliteWithOwnedTables());
      await index.replace(language, set.items.map((item, i) => ({ content: item.context, hash: sha256Hex(item.context), source: String(i) })));
      const hits = await index.search(language, question, { maxResults: 5, scoreThreshold: 0 });
      for (const hit of hits) expect(hit.score, `${language}: ${question} -> ${hit.content}`).toBeLessThan(0.5);
      expect(await index.search(language, question, { maxResults: 5, scoreThreshold: 0.5 }), language).toEqual([]);
    }
  });
});
