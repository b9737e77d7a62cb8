/**
 * Turns texts into vectors (an OpenAI-compatible embeddings endpoint, Ollama, a local model...).
 * `model` names the vector space: vectors of different models are never compared.
 */
export interface EmbeddingProvider {
  readonly model: string;
  embed(texts: string[]): Promise<number[][]>;
}
