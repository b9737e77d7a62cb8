import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '../../server/language/language-analyzers.ts';
import { QA_DIR } from './multilingual-retrieval.ts';

/**
 * tests/fixtures/multilingual-qa/off-topic.json: per language, six questions no paragraph of the
 * set answers (written for Forja's tests). The first five share nothing with the support topics;
 * the sixth ("How many days are there in a leap year?") shares two of its words with them on purpose.
 */
export const UNRELATED_TOPICS = 5;

export function offTopicQuestions(language: Language): string[] {
  const file = path.join(QA_DIR, 'off-topic.json');
  const questions = (JSON.parse(fs.readFileSync(file, 'utf8')) as { questions: Record<string, string[]> }).questions[language];
  if (!questions) throw new Error(`No off-topic questions for "${language}" in ${file}: add them under "questions".`);
  return questions;
}
