import type OpenAI from 'openai';
import { createOpenAiClient, type OpenAiConnectionOptions } from './create-openai-client.ts';
import type { EmbeddingProvider } from './embedding-provider.ts';
import { invalidResponse, toLlmError, type UpstreamDescription } from './to-llm-error.ts';

export interface OpenAiCompatibleEmbeddingOptions extends OpenAiConnectionOptions {
  model: string;
  /** Texts per request. Default 64: under every server's input-count limit we know of. */
  batchSize?: number;
}

export const DEFAULT_EMBEDDING_BATCH_SIZE = 64;

/**
 * POST {baseUrl}/embeddings in batches. Asks for `encoding_format: 'float'` explicitly: the SDK
 * otherwise requests base64, which some compatible servers do not implement.
 */
export class OpenAiCompatibleEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'openai-compatible';
  readonly model: string;
  private readonly client: OpenAI;
  private readonly upstream: UpstreamDescription;
  private readonly batchSize: number;

  constructor(options: OpenAiCompatibleEmbeddingOptions) {
    const model = options.model?.trim();
    if (!model) throw new Error('The openai-compatible embedding provider needs a model name (e.g. text-embedding-3-small or nomic-embed-text).');
    this.model = model;
    this.batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE));
    ({ client: this.client, upstream: this.upstream } = createOpenAiClient(options, model));
  }

  async embed(texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      vectors.push(...(await this.embedBatch(batch, options.signal)));
    }
    const dimensions = vectors[0]?.length;
    if (vectors.some((vector) => vector.length !== dimensions)) {
      throw invalidResponse(this.at(), undefined, 'embeddings of different lengths');
    }
    return vectors;
  }

  private async embedBatch(batch: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    let response: unknown;
    try {
      response = await this.client.embeddings.create({ model: this.model, input: batch, encoding_format: 'float' }, { signal });
    } catch (error) {
      throw toLlmError(error, this.upstream);
    }
    const data = (response as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== batch.length) {
      throw invalidResponse(this.at(), undefined, `a response with ${Array.isArray(data) ? data.length : 'no'} embeddings for ${batch.length} inputs`);
    }
    const ordered: number[][] = new Array(batch.length);
    data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
      const index = typeof item?.index === 'number' ? item.index : position;
      const embedding = item?.embedding;
      if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw invalidResponse(this.at(), undefined, 'an embedding that is not a list of numbers');
      }
      ordered[index] = embedding;
    });
    if (ordered.some((vector) => vector === undefined) || ordered.length !== batch.length) {
      throw invalidResponse(this.at(), undefined, 'embeddings with inconsistent indexes');
    }
    return ordered;
  }

  private at(): string {
    return `the embedding server at ${this.upstream.endpoint}`;
  }
}
