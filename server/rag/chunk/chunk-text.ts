import { RagError } from '../rag-error.ts';
import type { Chunk } from '../rag-types.ts';
import { recursiveCharacterSplit, recursiveCharacterSplitYielding } from './recursive-character-split.ts';
import { sha256Hex } from './sha256-hex.ts';

export const DEFAULT_CHUNK_SIZE = 512;
export const DEFAULT_CHUNK_OVERLAP = 100;
export const MAX_CHUNK_SIZE = 100_000;
/** 20 M characters: far beyond any document we parse, small enough to chunk in about a second. */
export const MAX_CHUNK_TEXT_LENGTH = 20 * 1024 * 1024;

/**
 * POST /api/rag/chunk: longest text (2 M characters, about 600 pages), most chunks (50,000) and
 * most characters in all chunks together (8 M: overlap repeats text, and chunkSize 100000 with
 * chunkOverlap 99999 made 1.6 G characters out of 200 K). Past any of them: 413 naming the limit.
 */
export const MAX_CHUNK_REQUEST_LENGTH = 2_000_000;
export const MAX_CHUNKS = 50_000;
export const MAX_CHUNK_OUTPUT_CHARS = 8_000_000;

export interface ChunkOptions {
  chunkSize?: number;
  chunkOverlap?: number;
}

/**
 * Cuts text into overlapping chunks (recursive character splitting: paragraph, line, word,
 * character) and keys each by the sha256 of its content. Bad settings are a RagError 400 naming
 * the field, never a crash.
 */
export function chunkText(text: unknown, options: ChunkOptions = {}): Chunk[] {
  const { chunkSize, chunkOverlap } = validateChunkOptions(options);
  if (typeof text !== 'string') throw new RagError('invalidInput', 'text must be a string', { field: 'text' });
  if (text.length > MAX_CHUNK_TEXT_LENGTH) {
    throw new RagError('tooLarge', `text is ${text.length} characters; the limit is ${MAX_CHUNK_TEXT_LENGTH}`, {
      field: 'text',
    });
  }
  return recursiveCharacterSplit(text, chunkSize, chunkOverlap).map((content) => ({
    content,
    hash: sha256Hex(content),
    category: '',
    tags: [],
  }));
}

/** Applies the defaults (512, 100) and checks the ranges: size 1..100000, overlap 0..size-1. */
export function validateChunkOptions(options: ChunkOptions): { chunkSize: number; chunkOverlap: number } {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const chunkOverlap = options.chunkOverlap ?? DEFAULT_CHUNK_OVERLAP;
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
    throw new RagError('invalidInput', `chunkSize must be an integer from 1 to ${MAX_CHUNK_SIZE}; got ${String(chunkSize)}`, {
      field: 'chunkSize',
    });
  }
  if (!Number.isInteger(chunkOverlap) || chunkOverlap < 0) {
    throw new RagError('invalidInput', `chunkOverlap must be a non-negative integer; got ${String(chunkOverlap)}`, {
      field: 'chunkOverlap',
    });
  }
  if (chunkOverlap >= chunkSize) {
    throw new RagError(
      'invalidInput',
      `chunkOverlap (${chunkOverlap}) must be smaller than chunkSize (${chunkSize})`,
      { field: 'chunkOverlap' },
    );
  }
  return { chunkSize, chunkOverlap };
}

/**
 * chunkText for a request: within the limits above, refused before any work when the settings
 * must exceed them (about length / (chunkSize - chunkOverlap) chunks), stopped as soon as the
 * output does, and cut into slices that let the event loop run (health checks and chats stay
 * responsive while 2 M characters are chunked).
 */
export async function chunkTextYielding(text: unknown, options: ChunkOptions = {}, signal?: AbortSignal): Promise<Chunk[]> {
  const { chunkSize, chunkOverlap } = validateChunkOptions(options);
  if (typeof text !== 'string') throw new RagError('invalidInput', 'text must be a string', { field: 'text' });
  if (text.length > MAX_CHUNK_REQUEST_LENGTH) {
    throw new RagError('tooLarge', `text is ${text.length} characters; at most ${MAX_CHUNK_REQUEST_LENGTH} can be chunked at once`, { field: 'text' });
  }
  const step = chunkSize - chunkOverlap;
  const estimated = Math.ceil(text.length / step);
  if (estimated > MAX_CHUNKS) {
    throw new RagError('tooLarge', `These settings cut the text into about ${estimated} chunks; at most ${MAX_CHUNKS}: raise chunkSize or lower chunkOverlap`, {
      field: 'chunkSize',
    });
  }
  // Chunks repeat their overlap: about length × chunkSize / (chunkSize - chunkOverlap) characters.
  const estimatedChars = Math.ceil((text.length * chunkSize) / step);
  if (estimatedChars > MAX_CHUNK_OUTPUT_CHARS && estimated > 1) {
    throw new RagError('tooLarge', `With chunkOverlap ${chunkOverlap} the chunks would repeat the text into about ${estimatedChars} characters; at most ${MAX_CHUNK_OUTPUT_CHARS}: lower chunkOverlap`, {
      field: 'chunkOverlap',
    });
  }
  let chars = 0;
  const contents = await recursiveCharacterSplitYielding(text, chunkSize, chunkOverlap, {
    signal,
    onChunk: (chunk, count) => {
      chars += chunk.length;
      if (count > MAX_CHUNKS) throw new RagError('tooLarge', `The text makes more than ${MAX_CHUNKS} chunks: raise chunkSize or lower chunkOverlap`, { field: 'chunkSize' });
      if (chars > MAX_CHUNK_OUTPUT_CHARS) {
        throw new RagError('tooLarge', `The chunks would total more than ${MAX_CHUNK_OUTPUT_CHARS} characters: lower chunkOverlap`, { field: 'chunkOverlap' });
      }
    },
  });
  const chunks: Chunk[] = [];
  let sliceStart = performance.now();
  for (const content of contents) {
    chunks.push({ content, hash: sha256Hex(content), category: '', tags: [] });
    if (performance.now() - sliceStart > 8) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return chunks;
}
