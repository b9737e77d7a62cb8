/**
 * The default separators of LangChain's RecursiveCharacterTextSplitter: paragraph, line, word,
 * then single UTF-16 code units.
 */
export const DEFAULT_SEPARATORS: readonly string[] = ['\n\n', '\n', ' ', ''];

/**
 * Splits text exactly as `@langchain/textsplitters` RecursiveCharacterTextSplitter does with its
 * defaults (keepSeparator true, length = UTF-16 `length`), chunk for chunk and character for
 * character; tests/unit/rag compare the two on varied inputs.
 *
 * Written by hand instead of calling the library because the library is asynchronous per split
 * (an `await` for every word's length), builds a RegExp per split and logs a console warning for
 * every oversized piece; this synchronous port is about twice as fast on 10 MB of text (see
 * tests/bench/rag.bench.ts), never logs, and keeps @langchain/core (and its LangSmith, zod and
 * tiktoken dependencies) out of the server's runtime dependencies.
 * Inherited quirks are kept on purpose, e.g. the "" separator cuts between UTF-16 code units, so a
 * word longer than chunkSize may be cut inside a surrogate pair.
 */
export function recursiveCharacterSplit(
  text: string,
  chunkSize: number,
  chunkOverlap: number,
  separators: readonly string[] = DEFAULT_SEPARATORS,
): string[] {
  const out: string[] = [];
  splitInto(text, separators, chunkSize, chunkOverlap, out);
  return out;
}

function splitInto(text: string, separators: readonly string[], size: number, overlap: number, out: string[]): void {
  let separator = separators[separators.length - 1];
  let rest: readonly string[] | undefined;
  for (let i = 0; i < separators.length; i += 1) {
    const s = separators[i];
    if (s === '') {
      separator = s;
      break;
    }
    if (text.includes(s)) {
      separator = s;
      rest = separators.slice(i + 1);
      break;
    }
  }
  const splits = splitKeepingSeparator(text, separator);
  let good: string[] = [];
  for (const s of splits) {
    if (s.length < size) {
      good.push(s);
      continue;
    }
    if (good.length) {
      merge(good, size, overlap, out);
      good = [];
    }
    if (rest) splitInto(s, rest, size, overlap, out);
    else out.push(s);
  }
  if (good.length) merge(good, size, overlap, out);
}

/**
 * Same pieces as `text.split(new RegExp('(?=' + separator + ')'))` without empty strings: a cut
 * before every occurrence of the separator except at position 0, occurrences may overlap.
 */
function splitKeepingSeparator(text: string, separator: string): string[] {
  if (separator === '') return text.split('');
  const pieces: string[] = [];
  let start = 0;
  let at = text.indexOf(separator, 1);
  while (at !== -1) {
    if (at > start) pieces.push(text.slice(start, at));
    start = at;
    at = text.indexOf(separator, at + 1);
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/** LangChain's mergeSplits with an empty join separator (keepSeparator true). */
function merge(splits: string[], size: number, overlap: number, out: string[]): void {
  const current: string[] = [];
  let head = 0; // current[head..] is the window; shifting by index keeps this linear
  let total = 0;
  for (const d of splits) {
    const len = d.length;
    if (total + len > size && current.length > head) {
      pushJoined(current, head, out);
      while (total > overlap || (total + len > size && total > 0)) {
        total -= current[head].length;
        head += 1;
      }
    }
    current.push(d);
    total += len;
  }
  pushJoined(current, head, out);
}

function pushJoined(parts: string[], from: number, out: string[]): void {
  const joined = (from === 0 ? parts.join('') : parts.slice(from).join('')).trim();
  if (joined !== '') out.push(joined);
}
