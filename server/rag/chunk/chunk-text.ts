import { RagError } from '../rag-error.ts';
import type { Chunk } from '../rag-types.ts';
import { recursiveCharacterSplit } from './recursive-character-split.ts';
import { sha256Hex } from './sha256-hex.ts';

export const DEFAULT_CHUNK_SIZE = 512;
export const DEFAULT_CHUNK_OVERLAP = 100;
export const MAX_CHUNK_SIZE = 100_000;
/** 20 M characters: far beyond any document we parse, small enough to chunk in about a second. */
export const MAX_CHUNK_TEXT_LENGTH = 20 * 1024 * 1024;

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
