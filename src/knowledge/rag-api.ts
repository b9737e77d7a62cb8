import { REQUEST_TIMEOUTS } from '../../runtime/transport/request-timeouts.ts';
import type { RestCall } from '../../runtime/transport/rest-transport.ts';
import { restApi } from '../session/api-client.ts';
import type { TrainingProblem } from './training-outcome.ts';

/** One search hit (server/rag/rag-types.ts SearchResult): score in 0..1. */
export interface RagSearchResult {
  content: string;
  score: number;
  source: string;
  hash: string;
}

export interface RagChunk {
  content: string;
  hash?: string | null;
  category?: string | null;
  tags?: string[] | null;
}

/** GET /api/rag/status/:id, polled while a training runs. */
export interface RagTrainingStatus {
  state: 'idle' | 'running' | 'done' | 'failed';
  phase: 'planning' | 'embedding' | 'indexing' | null;
  done: number;
  total: number;
  error?: string;
  i18nMessage?: string;
  chunks: number;
  trainedAt: string | null;
  /** The last outcome stored on the knowledge record (null: never trained or cleared). */
  outcome?: 'trained' | 'warning' | 'failed' | null;
  problems?: TrainingProblem[];
}

export interface RagTrainingResult {
  total: number;
  added: number;
  kept: number;
  removed: number;
  chunks: number;
  trainedAt: string | null;
  problems: TrainingProblem[];
}

/** UI chunking settings (spec §9): 1000 characters, 100 of overlap. */
export const UI_CHUNK_SIZE = 1000;
export const UI_CHUNK_OVERLAP = 100;

type Caller = { call<R>(call: RestCall): Promise<R> };

/** The Knowledge/RAG calls of spec §7, all with the knowledge timeout (30 min). */
export function createRagApi(http: Caller = restApi) {
  const call = <R>(c: Omit<RestCall, 'timeout'>) => http.call<R>({ ...c, timeout: REQUEST_TIMEOUTS.knowledge });
  const at = (id: string) => encodeURIComponent(id);
  return {
    train: (id: string) => call<RagTrainingResult>({ method: 'GET', path: `/api/rag/train/${at(id)}` }),
    status: (id: string, signal?: AbortSignal) => call<RagTrainingStatus>({ method: 'GET', path: `/api/rag/status/${at(id)}`, signal }),
    clear: (id: string) => call<{ removed: number }>({ method: 'DELETE', path: `/api/rag/clear/${at(id)}` }),
    search: (id: string, q: string, signal?: AbortSignal) =>
      call<RagSearchResult[]>({ method: 'GET', path: `/api/rag/search/${at(id)}`, searchParams: { q }, signal }),
    parseFile: (filepath: string) => call<{ content: string }>({ method: 'POST', path: '/api/rag/parse-file', json: { filepath } }),
    parseUrl: (url: string) => call<{ content: string }>({ method: 'POST', path: '/api/rag/parse-url', json: { url } }),
    improve: (text: string) => call<{ content: string }>({ method: 'POST', path: '/api/rag/improve', json: { text } }),
    chunk: (text: string, settings: { chunkSize: number; chunkOverlap: number } = { chunkSize: UI_CHUNK_SIZE, chunkOverlap: UI_CHUNK_OVERLAP }) =>
      call<{ chunks: RagChunk[] }>({ method: 'POST', path: '/api/rag/chunk', json: { text, chunkSize: settings.chunkSize, chunkOverlap: settings.chunkOverlap } }),
  };
}

export type RagApi = ReturnType<typeof createRagApi>;

export const ragApi: RagApi = createRagApi();
