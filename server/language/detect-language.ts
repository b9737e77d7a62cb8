import type { Language } from './language-analyzers.ts';
import { FUNCTION_WORDS } from './function-words.ts';

/** Detection reads this much of a text: enough for a verdict, bounded whatever the chunk size. */
const SAMPLE_LENGTH = 3000;

/** Scripts that name their language on their own (the share of letters decides). */
const SCRIPTS: ReadonlyArray<readonly [Language, RegExp]> = [
  ['ja', /[\u3040-\u30ff]/u],
  ['ko', /[\uac00-\ud7af\u1100-\u11ff]/u],
  ['zh', /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u],
  ['th', /[\u0e00-\u0e7f]/u],
  ['ar', /[\u0600-\u06ff\u0750-\u077f]/u],
  ['ru', /[\u0400-\u04ff]/u],
  ['el', /[\u0370-\u03ff\u1f00-\u1fff]/u],
  ['hi', /[\u0900-\u097f]/u],
];
/** Letters only Vietnamese uses among the Latin languages analysed (đ, ơ, ư and the stacked tone marks). */
const VIETNAMESE = /[đơưĐƠƯ\u1ea0-\u1ef9]/u;
/** Letters that point at one Latin language; each counts like a few stop words. */
const LETTER_HINTS: ReadonlyArray<readonly [Language, RegExp]> = [
  ['es', /[ñ¿¡]/u],
  // ü and ö are Turkish too: only the letters German alone uses here.
  ['de', /[ßä]/u],
  ['fr', /[èëœù]/u],
  ['pt', /[ãõ]/u],
  ['ro', /[ășțâî]/u],
  ['tr', /[ğıİş]/u],
];
const LATIN = ['es', 'en', 'de', 'fr', 'it', 'pt', 'ro', 'tr'] as const;
const WORD = /\p{L}+/gu;

/** A word common to several languages ("de", "la", "no") weighs less than one only a single language uses ("the", "und"). */
const WORD_WEIGHTS: ReadonlyMap<string, ReadonlyArray<readonly [Language, number]>> = (() => {
  const owners = new Map<string, Language[]>();
  for (const language of LATIN) {
    for (const word of (FUNCTION_WORDS[language] ?? '').split(' ')) {
      const list = owners.get(word) ?? [];
      list.push(language);
      owners.set(word, list);
    }
  }
  const weights = new Map<string, Array<readonly [Language, number]>>();
  for (const [word, languages] of owners) weights.set(word, languages.map((l) => [l, 1 / languages.length] as const));
  return weights;
})();

/**
 * The language of a text, or `fallback` when the text says too little (a word or two of no
 * telling script). Script first (CJK, Thai, Arabic, Cyrillic, Greek, Devanagari); among Latin
 * languages, Vietnamese by its letters, the rest by weighted stop words and telling letters.
 * Linear in the sample, so a chunk of any size costs the same.
 */
export function detectLanguage(text: string, fallback: Language): Language {
  return detectLanguageOrNull(text, fallback) ?? fallback;
}

/** As detectLanguage, but null when the text says too little to tell (`fallback` only breaks ties). */
export function detectLanguageOrNull(text: string, fallback: Language | null = null): Language | null {
  const sample = text.length > SAMPLE_LENGTH ? text.slice(0, SAMPLE_LENGTH) : text;
  const scriptCounts = new Map<Language, number>();
  let letters = 0;
  let vietnamese = 0;
  for (const ch of sample) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (ch.charCodeAt(0) < 0x250) continue;
    if (VIETNAMESE.test(ch)) vietnamese++;
    for (const [language, pattern] of SCRIPTS) {
      if (pattern.test(ch)) {
        scriptCounts.set(language, (scriptCounts.get(language) ?? 0) + 1);
        break;
      }
    }
  }
  if (letters === 0) return null;
  // Japanese mixes kana with Han: any real share of kana makes it Japanese, not Chinese.
  const kana = scriptCounts.get('ja') ?? 0;
  const han = scriptCounts.get('zh') ?? 0;
  if (kana > 0 && kana >= (kana + han) * 0.1) return 'ja';
  let best: Language | null = null;
  let bestCount = 0;
  for (const [language, count] of scriptCounts) {
    if (language === 'ja') continue;
    if (count > bestCount) (best = language), (bestCount = count);
  }
  if (best && bestCount >= letters * 0.3) return best;
  if (vietnamese >= 1 && vietnamese >= letters * 0.02) return 'vi';

  const scores = new Map<Language, number>();
  const lower = sample.toLowerCase();
  for (const match of lower.matchAll(WORD)) {
    const weights = WORD_WEIGHTS.get(match[0]);
    if (!weights) continue;
    for (const [language, weight] of weights) scores.set(language, (scores.get(language) ?? 0) + weight);
  }
  for (const ch of lower) {
    if (ch.charCodeAt(0) < 0xa1) continue;
    for (const [language, pattern] of LETTER_HINTS) if (pattern.test(ch)) scores.set(language, (scores.get(language) ?? 0) + 1);
  }
  let latin: Language | null = null;
  let latinScore = 0;
  for (const language of LATIN) {
    const score = scores.get(language) ?? 0;
    // Ties keep the earlier language; the fallback wins any tie it is part of.
    if (score > latinScore || (score === latinScore && score > 0 && language === fallback)) (latin = language), (latinScore = score);
  }
  return latin && latinScore >= 1 ? latin : null;
}
