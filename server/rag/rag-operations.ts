import type { FastifyBaseLogger } from 'fastify';
import type { EntityModel } from '../../contract/model/entity-model.ts';
import { resolveInside } from '../files/resolve-inside.ts';
import type { RoutePermission } from '../http/authorizer.ts';
import { HttpError } from '../http/http-error.ts';
import type { FeatureDependencies } from '../http/server-features.ts';
import type { Operation } from '../operations/define-operation.ts';
import type { OperationCaller } from '../operations/operation-caller.ts';
import { isFinished } from '../jobs/job-record.ts';
import { JobStopped } from '../jobs/job-queue.ts';
import { createLlmProvider } from '../llm/llm-provider-registry.ts';
import { LlmError } from '../llm/llm-error.ts';
import { improveText, MAX_IMPROVE_LENGTH } from './api/improve-text.ts';
import { trainingKey, trainingStatusOf } from './api/training-jobs.ts';
import { chunkTextYielding } from './chunk/chunk-text.ts';
import { parseStoredFile } from './parse/parse-file.ts';
import { checkUrl, parseUrl } from './parse/parse-url.ts';
import { RagError } from './rag-error.ts';
import { configuredRetrievalIndex } from './search/configured-retrieval-index.ts';
import { MAX_QUERY_LENGTH } from './search/index-input.ts';
import { planTraining, type TrainingKnowledge, type TrainingProblem, type TrainingSource } from './train/plan-training.ts';
import { registerKnowledgeIndexState } from './train/knowledge-index-state.ts';
import { TrainingRecord } from './train/training-record.ts';


/** What a knowledge base's operations take: its id (and, for a search, the text as sent). */
export interface KnowledgeInput {
  id: string;
  /** The search text (query parameter q), as sent: a string, or an array when it was repeated. */
  q?: unknown;
}

/** What the source-editing operations take: the JSON body as sent. */
export interface SourceInput {
  body: unknown;
}

/**
 * The Knowledge/RAG operations of docs/product-rules.md#calls over the retrieval core
 * (server/rag/README.md): parse-file, parse-url, chunk, improve (knowledge source editing: whoever
 * may create or update a source) and train, status, clear, search (knowledge bases: update to
 * train or clear, view to read or search). Each checks its caller itself; knowledge records and
 * their sources are then read through the EntityService with the caller's context, so a tenant
 * reaches only its own (another tenant's base is a 404).
 */
export interface RagOperations {
  parseFile: Operation<SourceInput, { content: string }>;
  parseUrl: Operation<SourceInput, { content: string }>;
  chunk: Operation<SourceInput, { chunks: unknown }>;
  improve: Operation<SourceInput, { content: string }>;
  train: Operation<KnowledgeInput, unknown>;
  status: Operation<KnowledgeInput, unknown>;
  clear: Operation<KnowledgeInput, unknown>;
  search: Operation<KnowledgeInput, unknown>;
}

/**
 * The operations and the jobs behind them (train, parse-file, parse-url), with the index for the
 * current embedding settings. Registers the job kinds and the knowledge index state on the way.
 */
export async function createRagOperations(deps: FeatureDependencies, log: FastifyBaseLogger): Promise<RagOperations> {
  const { service, config, database, entities } = deps;
  // The one configuration resolver (Settings over the environment), read per call.
  const readSettings = deps.effectiveConfig;
  // The index for the current embedding settings (hybrid when a model is set, on SQLite), rebuilt
  // when they change in Settings; logged at start and on every change.
  const currentIndex = configuredRetrievalIndex(database, readSettings, (chosen) => {
    if (chosen.warning) log.warn(chosen.warning);
    log.info({ retrieval: chosen.retrieval }, 'RAG index ready');
  });
  await currentIndex();
  const { jobs } = deps;
  const record = new TrainingRecord(database, service);
  // Every knowledge read says whether its index is current (the console's list and page show it).
  registerKnowledgeIndexState(service, database);

  const knowledgeModel = requireModel(entities, 'knowledge');
  const sourceModel = requireModel(entities, 'knowledgesource');
  const kp = knowledgeModel.permissions;
  const sp = sourceModel.permissions;
  const define = deps.defineOperation;
  const needs = (entity: string, action: RoutePermission['action'], permission: string, alternatives: string[]): RoutePermission[] => [
    { entity, action, permission, alternatives: alternatives.filter(Boolean) },
  ];
  // Editing a knowledge source: whoever may create or update one (or manage them).
  const editSources = needs('knowledgesource', 'create', sp.create, [sp.update, sp.manage, sp.createOwn ?? '']);
  const viewKnowledge = needs('knowledge', 'view', kp.view, [kp.manage, kp.viewOwn ?? '']);
  const updateKnowledge = needs('knowledge', 'update', kp.update, [kp.manage]);

  const loadKnowledge = (caller: OperationCaller, input: KnowledgeInput) => service.findById('knowledge', caller.context, input.id);

  // A training runs as a job: at most one queued or running per knowledge base across instances
  // (the queue's singleton key), its progress readable from any instance. The replace is atomic, so
  // a run whose instance died is safe to run again once; a failure is recorded on the knowledge.
  jobs.handle<{ knowledgeId: string }>('train', {
    maxAttempts: 2,
    onFailed: async (job, error) => record.failed((job.payload as { knowledgeId: string }).knowledgeId, error),
    run: ({ payload, context, progress, signal }) =>
      rag(async () => {
        const knowledge = await service.findById('knowledge', context, payload.knowledgeId);
        const id = String(knowledge._id);
        progress(0, 0, 'planning');
        const stopped = () => {
          if (signal.aborted) throw signal.reason instanceof JobStopped ? signal.reason : new JobStopped('cancelled');
        };
        const sourceIds = refIds(knowledge.sources);
        const sources = (await service.findByIds('knowledgesource', context, sourceIds)) as unknown as TrainingSource[];
        const { allowPrivateUrls } = await readSettings();
        const plan = await planTraining({ ...(knowledge as TrainingKnowledge), sources: sourceIds }, sources, {
          parseFile: async (file) => {
            stopped();
            if (!(await resolveInside(config.dataDir, file.filepath))) throw new RagError('fileNotFound', `File not found: ${file.filepath}`);
            return (await parseStoredFile(config.dataDir, file.filepath, { maxBytes: config.maxUploadBytes })).content;
          },
          parseUrl: async (url) => {
            stopped();
            return (await parseUrl(url, { allowPrivate: allowPrivateUrls })).content;
          },
        });
        stopped();
        const chosen = await currentIndex();
        const index = chosen.index;
        let phase: 'embedding' | 'indexing' = chosen.embedder && !chosen.warning ? 'embedding' : 'indexing';
        let last = -1;
        // progress() throws once the job is cancelled: the replace stops and the previous index stays.
        const result = await index.replace(id, plan.chunks, ({ done, total }) => {
          // HybridIndex reports twice over 0..total: embeddings first, then the BM25 index.
          if (phase === 'embedding' && done < last) phase = 'indexing';
          last = done;
          progress(done, total, phase);
        });
        const stats = await index.stats(id);
        // Persisted before the job ends, so a status call never sees "done" without its record.
        await record.succeeded(id, { trainedAt: stats.trainedAt, chunks: stats.chunks, problems: plan.problems, sources: plan.sources });
        return { ...result, chunks: stats.chunks, trainedAt: stats.trainedAt, problems: plan.problems };
      }),
  });
  jobs.handle<{ filepath: string }>('parse-file', {
    maxAttempts: 2,
    run: ({ payload }) => rag(async () => parseStoredFile(config.dataDir, payload.filepath, { maxBytes: config.maxUploadBytes }).then(({ content }) => ({ content }))),
  });
  jobs.handle<{ url: unknown }>('parse-url', {
    maxAttempts: 2,
    retryOnError: true,
    run: ({ payload }) =>
      rag(async () => {
        const { allowPrivateUrls } = await readSettings();
        const { content } = await parseUrl(payload.url, { allowPrivate: allowPrivateUrls });
        return { content };
      }),
  });

  return {
    parseFile: define<SourceInput, { content: string }>(editSources, async (caller, input) =>
      rag(async () => {
        const filepath = bodyOf(input.body).filepath;
        if (typeof filepath !== 'string' || filepath.trim() === '') {
          throw new RagError('invalidInput', 'filepath must be the path of an uploaded file (POST /api/file)', { field: 'filepath' });
        }
        // Only what the upload route stores (a named folder, no dotfiles): never the database
        // file, its WAL or anything at the root of DATA_DIR.
        if (!(await resolveInside(config.dataDir, filepath))) {
          throw new RagError('fileNotFound', `File not found: ${filepath}`, { field: 'filepath' });
        }
        // Parsed as a job (server/jobs): the console's jobs panel shows it, any instance may run it.
        const { result } = await jobs.run({ kind: 'parse-file', payload: { filepath }, context: caller.context, subject: { label: filepath } });
        return result as { content: string };
      }),
    ),

    parseUrl: define<SourceInput, { content: string }>(editSources, async (caller, input) =>
      rag(async () => {
        // Checked here so only a well-formed URL is ever stored in a job.
        const url = checkUrl(bodyOf(input.body).url).href;
        const { result } = await jobs.run({ kind: 'parse-url', payload: { url }, context: caller.context, subject: { label: url.slice(0, 200) } });
        return result as { content: string };
      }),
    ),

    chunk: define<SourceInput, { chunks: unknown }>(editSources, async (_caller, input) =>
      rag(async () => {
        const body = bodyOf(input.body);
        const chunks = await chunkTextYielding(body.text, {
          chunkSize: body.chunkSize === undefined || body.chunkSize === null ? undefined : (body.chunkSize as number),
          chunkOverlap: body.chunkOverlap === undefined || body.chunkOverlap === null ? undefined : (body.chunkOverlap as number),
        });
        return { chunks };
      }),
    ),

    improve: define<SourceInput, { content: string }>(editSources, async (_caller, input) =>
      rag(async () => {
        const text = bodyOf(input.body).text;
        if (typeof text !== 'string' || text.trim() === '') {
          throw new RagError('invalidInput', 'text must be a non-empty string: the edited text to improve', { field: 'text' });
        }
        if (text.length > MAX_IMPROVE_LENGTH) {
          throw new RagError('tooLarge', `text is ${text.length} characters; at most ${MAX_IMPROVE_LENGTH} can be improved at once`, {
            field: 'text',
          });
        }
        const { llm } = await readSettings();
        let provider;
        try {
          provider = createLlmProvider(llm);
        } catch (error) {
          throw new HttpError(409, `The language model settings are invalid: ${(error as Error).message}`, { i18nMessage: 'error.rag.llmSettings' });
        }
        // The offline provider only extracts answers from fragments: it cannot rewrite, and a fake
        // rewrite would be worse than an honest refusal.
        if (provider.name === 'offline') {
          throw new HttpError(409, 'No language model is configured: set one in Settings to improve texts', { i18nMessage: 'error.rag.noLlm' });
        }
        try {
          const content = await improveText(provider, text);
          if (content === '') throw new LlmError('invalid_response', 'The language model returned an empty text');
          return { content };
        } catch (error) {
          if (error instanceof LlmError) throw new HttpError(error.status, error.message, { i18nMessage: 'error.rag.llmFailed' });
          throw error;
        }
      }),
    ),

    // Enqueues the training and answers when it ends (docs/product-rules.md#calls: the response is the training's result).
    train: define<KnowledgeInput, unknown>(updateKnowledge, async (caller, input) =>
      rag(async () => {
        const knowledge = await loadKnowledge(caller, input);
        const id = String(knowledge._id);
        const queued = await jobs.enqueue({
          kind: 'train',
          singletonKey: trainingKey(id),
          payload: { knowledgeId: id },
          context: caller.context,
          subject: { entity: 'knowledge', id, label: typeof knowledge.name === 'string' ? knowledge.name : '' },
        });
        if (!queued) throw new RagError('trainingInProgress', 'This knowledge base is already being trained; wait for it to finish');
        return jobs.outcome(queued.id);
      }),
    ),

    // The training job (progress; read from the queue, so the same on every instance), else the last
    // outcome stored on the record (trainingState, trainedAt, trainedChunks, trainingProblems).
    status: define<KnowledgeInput, unknown>(viewKnowledge, async (caller, input) => {
      const knowledge = await loadKnowledge(caller, input);
      const id = String(knowledge._id);
      const stats = await (await currentIndex()).index.stats(id);
      const outcome = (knowledge.trainingState as string | null | undefined) ?? null;
      const job = trainingStatusOf(await jobs.latest(trainingKey(id)), outcome !== null);
      const stored = Array.isArray(knowledge.trainingProblems) ? (knowledge.trainingProblems as TrainingProblem[]) : [];
      const last = job.state === 'idle' && outcome !== null
        ? { state: outcome === 'failed' ? ('failed' as const) : ('done' as const), problems: outcome === 'failed' ? [] : stored }
        : {};
      const failure = job.state === 'idle' && outcome === 'failed' && stored[0]
        ? { error: stored[0].message, i18nMessage: stored[0].reason }
        : {};
      return { ...job, ...last, ...failure, outcome, chunks: stats.chunks, trainedAt: stats.trainedAt };
    }),

    clear: define<KnowledgeInput, unknown>(updateKnowledge, async (caller, input) =>
      rag(async () => {
        const knowledge = await loadKnowledge(caller, input);
        const id = String(knowledge._id);
        const training = await jobs.latest(trainingKey(id));
        if (training && !isFinished(training.state)) throw new RagError('trainingInProgress', 'This knowledge base is being trained; clear it when the training ends');
        const result = await (await currentIndex()).index.clear(id);
        await record.cleared(id);
        return result;
      }),
    ),

    search: define<KnowledgeInput, unknown>(viewKnowledge, async (caller, input) =>
      rag(async () => {
        const q = input.q;
        if (Array.isArray(q)) throw new RagError('invalidInput', 'Query parameter "q" was given more than once', { field: 'q' });
        if (typeof q !== 'string' || q.trim() === '') throw new RagError('invalidInput', 'q must be the text to search for', { field: 'q' });
        if (q.length > MAX_QUERY_LENGTH) {
          throw new RagError('tooLarge', `q is ${q.length} characters; the limit is ${MAX_QUERY_LENGTH}`, { field: 'q' });
        }
        const knowledge = await loadKnowledge(caller, input);
        return (await currentIndex()).index.search(String(knowledge._id), q, {
          maxResults: numberOr(knowledge.maxResults, 5),
          scoreThreshold: numberOr(knowledge.scoreThreshold, 0.5),
        });
      }),
    ),
  };
}

function requireModel(entities: FeatureDependencies['entities'], name: string): EntityModel {
  const model = entities[name];
  if (!model) throw new Error(`The RAG feature needs the "${name}" entity model`);
  return model;
}

function bodyOf(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new RagError('invalidInput', 'Expected a JSON object body');
  }
  return body as Record<string, unknown>;
}

/** Ids of an array.ref as stored or populated ({ _id, name } or null for a deleted record). */
function refIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((ref) => (typeof ref === 'string' ? ref : ref && typeof ref === 'object' ? (ref as { _id?: unknown })._id : null))
    .filter((id): id is string => typeof id === 'string' && id !== '');
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** RagError (and LlmError) as the API's one error shape with the right 4xx/5xx status. */
function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof RagError) {
    const body = error.toBody();
    return new HttpError(error.statusCode, body.message, { i18nMessage: body.i18nMessage, ...(body.inputErrors ? { inputErrors: body.inputErrors } : {}) });
  }
  if (error instanceof LlmError) return new HttpError(error.status, error.message, { i18nMessage: 'error.rag.llmFailed' });
  return null;
}

async function rag<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toHttpError(error) ?? error;
  }
}
