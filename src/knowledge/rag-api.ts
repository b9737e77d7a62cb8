import { REQUEST_TIMEOUTS } from '../../runtime/transport/request-timeouts.ts';
import type { RestCall } from '../../runtime/transport/rest-transport.ts';
import { restApi } from '../session/api-client.ts';
import type { SearchResult } from '../../contract/rag/search-result.ts';
import type { TrainingProblem } from '../../contract/rag/training-problem.ts';
import type { KnowledgeTrainingStatus } from '../../contract/rag/training-status.ts';

/** One search hit: score in 0..1. */
export type RagSearchResult = SearchResult;

export interface RagChunk {
  content: string;
  hash?: string | null;
  category?: string | null;
  tags?: string[] | null;
}

/**
 * GET /api/rag/status/:id, polled while a training runs. The console builds idle and placeholder
 * statuses itself, so the fields it does not need are optional here.
 */
type OptionalStatusField = 'startedAt' | 'finishedAt' | 'problems' | 'outcome';
export type RagTrainingStatus = Omit<KnowledgeTrainingStatus, OptionalStatusField> & Partial<Pick<KnowledgeTrainingStatus, OptionalStatusField>>;

export interface RagTrainingResult {
  total: number;
  added: number;
  kept: number;
  removed: number;
  chunks: number;
  trainedAt: string | null;
  problems: TrainingProblem[];
}

/** UI chunking settings (docs/product-rules.md#constants): 1000 characters, 100 of overlap. */
export const UI_CHUNK_SIZE = 1000;
export const UI_CHUNK_OVERLAP = 100;

type Caller = { call<R>(call: RestCall): Promise<R> };

/** The Knowledge/RAG calls of docs/product-rules.md#calls, all with the knowledge timeout (30 min). */
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
