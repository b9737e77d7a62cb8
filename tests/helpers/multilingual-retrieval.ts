import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sha256Hex } from '../../server/rag/chunk/sha256-hex.ts';
import type { SourcedChunk } from '../../server/rag/rag-types.ts';
import type { RetrievalIndex } from '../../server/rag/search/retrieval-index.ts';
import { SqliteFtsIndex } from '../../server/db/retrieval/sqlite-fts-index.ts';
import { LANGUAGES, type Language } from '../../server/language/language-analyzers.ts';
import { memorySqliteWithOwnedTables } from './owned-tables.ts';

/**
 * The multilingual question sets (tests/fixtures/multilingual-qa/<language>.json, written for
 * Forja's tests: the same twelve support paragraphs in each language, two paraphrased questions
 * each) and how retrieval is scored on them: recall@1, recall@5 and MRR of each question's own
 * paragraph, the measures of the floor script (shared/retrieval/bm25_lang.py).
 */
export const QA_DIR = path.resolve(import.meta.dirname, '../fixtures/multilingual-qa');
const ROOT = path.resolve(import.meta.dirname, '../..');

export interface QaSet {
  language: Language;
  items: Array<{ context: string; questions: string[] }>;
}

export interface RetrievalScore {
  questions: number;
  recallAt1: number;
  recallAt5: number;
  mrr: number;
}

export function readQaSet(language: Language): QaSet {
  return JSON.parse(fs.readFileSync(path.join(QA_DIR, `${language}.json`), 'utf8')) as QaSet;
}

export const QA_LANGUAGES: readonly Language[] = LANGUAGES.filter((l) => fs.existsSync(path.join(QA_DIR, `${l}.json`)));

const sourceOf = (language: string, item: number) => `${language}#${item}`;

function chunksOf(set: QaSet): SourcedChunk[] {
  return set.items.map((item, i) => ({ content: item.context, hash: sha256Hex(item.context), source: sourceOf(set.language, i) }));
}

/** Ranks every question of `sets` against one index holding all their paragraphs. */
async function score(index: RetrievalIndex, knowledgeId: string, sets: readonly QaSet[], perSet: boolean): Promise<Map<string, RetrievalScore>> {
  const scores = new Map<string, RetrievalScore>();
  const all = sets.flatMap(chunksOf);
  await index.replace(knowledgeId, all);
  for (const set of sets) {
    let r1 = 0;
    let r5 = 0;
    let mrr = 0;
    let n = 0;
    for (const [i, item] of set.items.entries()) {
      for (const question of item.questions) {
        n++;
        const results = await index.search(knowledgeId, question, { maxResults: 20, scoreThreshold: 0 });
        const rank = results.findIndex((r) => r.source === sourceOf(set.language, i)) + 1;
        if (rank === 1) r1++;
        if (rank >= 1 && rank <= 5) r5++;
        if (rank >= 1) mrr += 1 / rank;
      }
    }
    scores.set(perSet ? set.language : 'all', { questions: n, recallAt1: r1 / n, recallAt5: r5 / n, mrr: mrr / n });
  }
  return scores;
}

/** Forja's SQLite retrieval on one language's set, alone in its knowledge base. */
export async function scoreLanguage(language: Language): Promise<RetrievalScore> {
  const db = await memorySqliteWithOwnedTables();
  try {
    return (await score(new SqliteFtsIndex(db), `qa-${language}`, [readQaSet(language)], true)).get(language)!;
  } finally {
    db.close();
  }
}

/** Every language's paragraphs in ONE knowledge base: each question must still find its own. */
export async function scoreMixedBase(languages: readonly Language[] = QA_LANGUAGES): Promise<Map<string, RetrievalScore>> {
  const db = await memorySqliteWithOwnedTables();
  try {
    return await score(new SqliteFtsIndex(db), 'qa-mixed', languages.map(readQaSet), true);
  } finally {
    db.close();
  }
}

/**
 * The floor script on the same set (converted to SQuAD), when python3 with snowballstemmer and
 * ../shared/retrieval/bm25_lang.py are there; null otherwise.
 */
export function scoreFloor(language: Language): RetrievalScore | null {
  const script = [path.join(ROOT, '../shared/retrieval/bm25_lang.py'), process.env.FORJA_FLOOR_SCRIPT ?? ''].find((p) => p && fs.existsSync(p));
  if (!script) return null;
  const set = readQaSet(language);
  const squad = {
    data: [{ paragraphs: set.items.map((item, i) => ({ context: item.context, qas: item.questions.map((q, j) => ({ id: `${i}-${j}`, question: q })) })) }],
  };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'forja-floor-')), `${language}.json`);
  fs.writeFileSync(file, JSON.stringify(squad));
  for (const python of ['/usr/bin/python3', 'python3']) {
    const run = spawnSync(python, [script, file, language], { encoding: 'utf8' });
    const match = /n=(\d+) r@1=([\d.]+) r@5=([\d.]+) mrr=([\d.]+)/.exec(run.stdout ?? '');
    if (match) return { questions: Number(match[1]), recallAt1: Number(match[2]), recallAt5: Number(match[3]), mrr: Number(match[4]) };
  }
  return null;
}
