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
  const steps = splitInto(text, separators, chunkSize, chunkOverlap, out, { work: 0, onChunk: null });
  while (!steps.next().done);
  return out;
}

/** Work (pieces, plus 1 per 64 characters joined) between two chances to yield: well under a millisecond. */
const WORK_PER_CHECK = 2048;

export interface SplitOptions {
  /** Longest stretch of synchronous work before the event loop gets a turn (default 8 ms). */
  sliceMs?: number;
  /** Called with each chunk as it is produced; throw to stop (a cap on the output). */
  onChunk?: (chunk: string, count: number) => void;
  signal?: AbortSignal;
}

/**
 * The same split, cut into slices of at most `sliceMs` of work with the event loop running in
 * between (setImmediate), so a large text never holds other requests (the health check, the chat)
 * for more than a slice. Chunk for chunk identical to recursiveCharacterSplit.
 */
export async function recursiveCharacterSplitYielding(
  text: string,
  chunkSize: number,
  chunkOverlap: number,
  options: SplitOptions = {},
): Promise<string[]> {
  const out: string[] = [];
  const sliceMs = options.sliceMs ?? 8;
  const steps = splitInto(text, DEFAULT_SEPARATORS, chunkSize, chunkOverlap, out, { work: 0, onChunk: options.onChunk ?? null });
  let sliceStart = performance.now();
  while (!steps.next().done) {
    if (performance.now() - sliceStart < sliceMs) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
    sliceStart = performance.now();
  }
  return out;
}

interface SplitState {
  work: number;
  onChunk: ((chunk: string, count: number) => void) | null;
}

/** Yields every STEPS_PER_CHECK pieces so a driver may pause; the drivers above decide whether to. */
function* splitInto(text: string, separators: readonly string[], size: number, overlap: number, out: string[], state: SplitState): Generator<void, void, void> {
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
    if (++state.work >= WORK_PER_CHECK) {
      state.work = 0;
      yield;
    }
    if (s.length < size) {
      good.push(s);
      continue;
    }
    if (good.length) {
      yield* merge(good, size, overlap, out, state);
      good = [];
    }
    if (rest) yield* splitInto(s, rest, size, overlap, out, state);
    else push(s, out, state);
  }
  if (good.length) yield* merge(good, size, overlap, out, state);
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
function* merge(splits: string[], size: number, overlap: number, out: string[], state: SplitState): Generator<void, void, void> {
  const current: string[] = [];
  let head = 0; // current[head..] is the window; shifting by index keeps this linear
  let total = 0;
  for (const d of splits) {
    const len = d.length;
    if (total + len > size && current.length > head) {
      // Joining a window costs its length: counted, so large windows yield as often as many pieces.
      state.work += 1 + (total >> 6);
      if (state.work >= WORK_PER_CHECK) {
        state.work = 0;
        yield;
      }
      pushJoined(current, head, out, state);
      while (total > overlap || (total + len > size && total > 0)) {
        total -= current[head].length;
        head += 1;
      }
    }
    current.push(d);
    total += len;
  }
  pushJoined(current, head, out, state);
}

function pushJoined(parts: string[], from: number, out: string[], state: SplitState): void {
  const joined = (from === 0 ? parts.join('') : parts.slice(from).join('')).trim();
  if (joined !== '') push(joined, out, state);
}

function push(chunk: string, out: string[], state: SplitState): void {
  out.push(chunk);
  state.onChunk?.(chunk, out.length);
}
