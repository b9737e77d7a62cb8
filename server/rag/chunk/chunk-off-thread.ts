import { CpuTaskError, cpuPool } from '../../workers/run-cpu-task.ts';
import { RagError } from '../rag-error.ts';
import type { Chunk } from '../rag-types.ts';
import { chunkText, validateChunkOptions, type ChunkOptions } from './chunk-text.ts';

/** Texts up to this many characters are chunked where they are (about 2 ms); longer ones in the worker pool. */
export const MAIN_THREAD_CHUNK_CHARS = 32 * 1024;

/**
 * chunkText for training: the same chunks, computed in the worker pool's `chunk` task
 * (server/workers/) once the text is long enough to hold the event loop (a 20 M-character
 * document takes over a second), so /api/health and every other request go on meanwhile. Bad
 * settings or an over-long text are the same RagError chunkText throws. With the pool's queue
 * full, the text is chunked here as it was before the pool, rather than failing a training for
 * a moment's load; a worker that runs out of heap or time is an unreadable text.
 */
export async function chunkOffThread(text: string, options: ChunkOptions = {}): Promise<Chunk[]> {
  if (typeof text !== 'string' || text.length <= MAIN_THREAD_CHUNK_CHARS) return chunkText(text, options);
  // Settings are checked here too, so a bad one never costs a round trip to a worker.
  const { chunkSize, chunkOverlap } = validateChunkOptions(options);
  try {
    return await cpuPool().run('chunk', { text, chunkSize, chunkOverlap });
  } catch (error) {
    if (!(error instanceof CpuTaskError)) throw error;
    if (error.reason === 'busy') return chunkText(text, options);
    throw new RagError('unreadableFile', `A text of ${text.length} characters could not be cut into chunks: ${error.message}`, { cause: error });
  }
}
