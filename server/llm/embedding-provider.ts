/** Turns texts into vectors for retrieval. Rejects with an LlmError on upstream failure. */
export interface EmbeddingProvider {
  readonly name: string;
  readonly model: string;
  /** One vector per text, in input order; [] for []. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
