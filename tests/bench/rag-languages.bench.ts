// npm run bench:rag (first part) — retrieval in every language: recall@1, recall@5 and MRR of
// Forja's index (SQLite FTS5 candidates, BM25 ranking, the language's analyzer) on the question
// sets of tests/fixtures/multilingual-qa, against the floor script (shared/retrieval/bm25_lang.py,
// run with python3 + snowballstemmer where present) on the same data, and with every language's
// paragraphs in one mixed knowledge base. `--write-floor` records the floor's figures in
// tests/fixtures/multilingual-qa/floor.json, which the unit test holds Forja to.
import fs from 'node:fs';
import path from 'node:path';
import { QA_DIR, QA_LANGUAGES, scoreFloor, scoreLanguage, scoreMixedBase, type RetrievalScore } from '../helpers/multilingual-retrieval.ts';

const f = (n: number | undefined) => (n === undefined ? '  -  ' : n.toFixed(3));
const floors: Record<string, RetrievalScore> = {};
const mixed = await scoreMixedBase();
const rows: string[] = ['| language | questions | Forja r@1 | floor r@1 | Forja r@5 | floor r@5 | Forja MRR | floor MRR | mixed base r@1 |', '|---|---|---|---|---|---|---|---|---|'];
let forjaSum = 0;
let floorSum = 0;
let floorCount = 0;
for (const language of QA_LANGUAGES) {
  const forja = await scoreLanguage(language);
  const floor = scoreFloor(language);
  if (floor) (floors[language] = floor), (floorSum += floor.recallAt1), floorCount++;
  forjaSum += forja.recallAt1;
  rows.push(`| ${language} | ${forja.questions} | ${f(forja.recallAt1)} | ${f(floor?.recallAt1)} | ${f(forja.recallAt5)} | ${f(floor?.recallAt5)} | ${f(forja.mrr)} | ${f(floor?.mrr)} | ${f(mixed.get(language)?.recallAt1)} |`);
}
rows.push(`| **mean** | | **${f(forjaSum / QA_LANGUAGES.length)}** | **${floorCount ? f(floorSum / floorCount) : '  -  '}** | | | | | |`);
console.log(rows.join('\n'));
if (floorCount === 0) console.log('\n(floor not run: needs python3 with snowballstemmer, e.g. apt-get install python3-snowballstemmer, and ../shared/retrieval/bm25_lang.py)');
if (process.argv.includes('--write-floor') && floorCount === QA_LANGUAGES.length) {
  fs.writeFileSync(path.join(QA_DIR, 'floor.json'), `${JSON.stringify(floors, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), path.join(QA_DIR, 'floor.json'))}`);
}
