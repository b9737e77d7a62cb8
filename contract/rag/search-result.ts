/**
 * One hit of GET /api/rag/search/:id (and of the retrieval core, server/rag): `score` is in 0..1,
 * see server/rag/README.md for what it means. Shared by server/ and the console.
 */
export interface SearchResult {
  content: string;
  score: number;
  source: string;
  hash: string;
}
