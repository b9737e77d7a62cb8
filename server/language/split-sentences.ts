import type { Language } from './language-analyzers.ts';

/**
 * A text's sentences, for extractive answers (server/llm/extract-answer.ts). ICU's sentence
 * segmenter (Intl.Segmenter, shipped with Node) does the work, including CJK 。！？ and decimals;
 * Node's ICU applies no abbreviation exceptions, so "St.", "Sr.", "z. B." would end a sentence.
 * The rules here repair that, join the hard line breaks of PDF text, and split Thai, which marks
 * sentence ends with a space rather than punctuation.
 */
export interface Sentence {
  text: string;
  /** A short unpunctuated line followed by more text: lends its words to the fragment, answers nothing. */
  heading: boolean;
}

/**
 * Abbreviations that end in a full stop without ending the sentence, per language, lower case,
 * without their final dot. Single letters ("J.", "z. B.", "p. ej.") and any abbreviation followed by
 * a lower-case word are handled by rule, so only those commonly followed by a capital or a digit are
 * listed. "etc." is left out everywhere: it ends sentences as often as not.
 */
const ABBREVIATIONS: Readonly<Partial<Record<Language, string>>> = {
  en: 'mr mrs ms dr prof st jr sr vs approx dept no nos inc ltd co mt ave rd fig tel ft',
  es: 'sr sra srta sres dr dra ud uds ej pág núm aprox art avda av tel dpto vol cap admón excmo',
  de: 'bzw usw ca nr str hauptstr dr prof ggf evtl inkl zzgl vgl bspw tel abs art',
  fr: 'mme mlle mm dr pr ex env av bd tél vol chap cf st ste art',
  it: 'sig sigra sigg dott dr ing avv prof pag tel art ecc',
  pt: 'sr sra srta dr dra av pág tel art ex',
  ro: 'dl dna dr prof str nr tel art',
};
const abbreviationSets = new Map<Language, ReadonlySet<string>>();
function abbreviationsOf(language: Language): ReadonlySet<string> {
  let set = abbreviationSets.get(language);
  if (!set) {
    set = new Set((ABBREVIATIONS[language] ?? '').split(' ').filter(Boolean));
    abbreviationSets.set(language, set);
  }
  return set;
}

const segmenters = new Map<string, Intl.Segmenter>();
function segmenterOf(language: Language): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
    segmenters.set(language, segmenter);
  }
  return segmenter;
}

/** Sentence-final punctuation, Latin and CJK, possibly followed by closing quotes or brackets. */
const ENDS_SENTENCE = /[.!?…:;。！？](?:["'»”’)\]」』]*)$/u;
const LIST_MARKER = /^(?:[-*•·▪‣◦]|#+|\d{1,3}[.)])\s+/u;
const THAI = /[\u0e00-\u0e7f]/u;
const MAX_HEADING_WORDS = 8;
/** A line at least this long that stops mid-sentence was wrapped (PDF text), not ended. */
const WRAPPED_LINE_CHARS = 40;

export function splitSentences(text: string, language: Language): Sentence[] {
  const out: Sentence[] = [];
  for (const block of joinHardBreaks(text)) {
    if (block.heading) {
      out.push({ text: block.text, heading: true });
      continue;
    }
    for (const sentence of segment(block.text, language)) out.push({ text: sentence, heading: false });
  }
  return out;
}

/**
 * Lines of a text as paragraphs: a line that does not end a sentence runs on into the next when
 * that one continues it (PDF text breaks lines mid-sentence: "...devolver el\nproducto en 30 días").
 * A short unpunctuated line before a capitalised one is a heading; list items stay apart; a word
 * hyphenated across the break is joined.
 */
function joinHardBreaks(text: string): Array<{ text: string; heading: boolean }> {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const blocks: Array<{ text: string; heading: boolean }> = [];
  let current = '';
  const flush = () => {
    if (/[\p{L}\p{N}]/u.test(current)) blocks.push({ text: current, heading: false });
    current = '';
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(LIST_MARKER, '');
    if (line === '') {
      flush();
      continue;
    }
    const next = lines[i + 1] ?? '';
    if (current === '') {
      if (!LIST_MARKER.test(lines[i]) && isHeading(line, next)) {
        blocks.push({ text: line, heading: true });
        continue;
      }
      current = line;
    } else if (/\p{L}-$/u.test(current) && /^\p{Ll}/u.test(line)) {
      current = current.slice(0, -1) + line;
    } else {
      current = `${current} ${line}`;
    }
    if (!runsOn(line, next)) flush();
  }
  flush();
  return blocks;
}

/**
 * Whether the next line continues this one: never a list item or after a blank line; after a
 * finished sentence only when it starts in lower case; after an unfinished line when it starts in
 * lower case or a digit, or when the line is long enough to have been wrapped.
 */
function runsOn(line: string, next: string): boolean {
  if (next === '' || LIST_MARKER.test(next)) return false;
  if (/^\p{Ll}/u.test(next)) return true;
  if (ENDS_SENTENCE.test(line)) return false;
  return /^\p{N}/u.test(next) || line.length >= WRAPPED_LINE_CHARS;
}

function isHeading(line: string, next: string): boolean {
  return (
    next !== '' &&
    !ENDS_SENTENCE.test(line) &&
    !/[,]$/.test(line) &&
    line.split(/\s+/).length <= MAX_HEADING_WORDS &&
    !/^[\p{Ll}\p{N}]/u.test(next) &&
    /\p{L}/u.test(line)
  );
}

/** ICU's sentences, with abbreviation, initial and ordinal breaks undone; Thai split at its spaces. */
function segment(text: string, language: Language): string[] {
  const pieces = [...segmenterOf(language).segment(text)].map(({ segment }) => segment);
  const abbreviations = abbreviationsOf(language);
  const merged: string[] = [];
  for (const piece of pieces) {
    const previous = merged.at(-1);
    if (previous !== undefined && continuesSentence(previous, piece, abbreviations, language)) merged[merged.length - 1] = previous + piece;
    else merged.push(piece);
  }
  const sentences = merged.map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
  return sentences.flatMap((s) => (THAI.test(s) ? splitThai(s) : [s]));
}

function continuesSentence(previous: string, next: string, abbreviations: ReadonlySet<string>, language: Language): boolean {
  const before = previous.trimEnd();
  const after = next.trimStart();
  if (!before.endsWith('.')) return false;
  // A sentence never starts in lower case: "p. ej. en la tabla", "e.g. said".
  if (/^\p{Ll}/u.test(after)) return true;
  const word = /(?:^|[\s(«"“])([\p{L}.]+)\.$/u.exec(before)?.[1]?.toLowerCase();
  if (word !== undefined) {
    // Initials and one-letter abbreviations: "J. Smith", "z. B.", "M. Dupont".
    if (/^\p{L}$/u.test(word)) return true;
    // Dotted abbreviations: "e.g.", "p.ej.", "z.B.", "U.S.".
    if (/^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(word)) return true;
    if (abbreviations.has(word)) return true;
    // German street names: "Hauptstr. 5", "Bahnhofstr. 12".
    if (language === 'de' && word.endsWith('str') && /^\d/.test(after)) return true;
  }
  // German and other ordinals: "Am 1. Januar", "el 2. piso" (a sentence rarely ends in a 1-2 digit number before a word).
  if (language === 'de' && /(?:^|\s)\d{1,2}\.$/.test(before) && /^\p{L}/u.test(after)) return true;
  return false;
}

/**
 * Thai puts a space where a sentence or clause ends and none between words; a space next to a
 * digit or a Latin word ("ภายใน 30 วัน") is not such a break.
 */
function splitThai(text: string): string[] {
  return text
    .split(/(?<=[\u0e00-\u0e7f])\s+(?=[\u0e00-\u0e7f])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}
