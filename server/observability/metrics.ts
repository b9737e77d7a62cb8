import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Forja's Prometheus metrics, one set per process (one server per process in production; the
 * test files that start several servers read deltas). Every series is declared here, so the
 * dashboard (ops/grafana-dashboard.json) and this file list the same names. Recording is a few
 * additions on numbers; nothing is served unless METRICS_ENABLED=true (metrics-route.ts).
 */
export const registry = new Registry();

/** Seconds: from 5 ms (a cached read) to 30 s (an import or a slow model). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Jobs run from under a second (a parse) to an hour (training a large knowledge base). */
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

export const httpRequestDuration = new Histogram({
  name: 'forja_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status, with their latency',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'forja_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a rate limit, by route pattern',
  labelNames: ['route'] as const,
  registers: [registry],
});

export const databaseQueryDuration = new Histogram({
  name: 'forja_db_query_duration_seconds',
  help: 'Database calls by kind (all, first, run, runAll) and engine',
  labelNames: ['operation', 'engine'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'forja_job_duration_seconds',
  help: 'Job runs on this instance by kind and outcome (done, failed, cancelled, requeued)',
  labelNames: ['kind', 'outcome'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const chatAnswers = new Counter({
  name: 'forja_chat_answers_total',
  help: 'Chat answers by provider and status (ok, no_answer, error)',
  labelNames: ['provider', 'status'] as const,
  registers: [registry],
});

export const chatAnswerDuration = new Histogram({
  name: 'forja_chat_answer_duration_seconds',
  help: 'What a visitor waited for an answer (retrieval, prompt and model), by provider and status',
  labelNames: ['provider', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const llmDuration = new Histogram({
  name: 'forja_llm_request_duration_seconds',
  help: "The language model's share of an answer, by provider",
  labelNames: ['provider'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const llmTokens = new Counter({
  name: 'forja_llm_tokens_total',
  help: 'Tokens sent to (input) and produced by (output) the language model, by provider',
  labelNames: ['provider', 'direction'] as const,
  registers: [registry],
});

export const retrievalDuration = new Histogram({
  name: 'forja_retrieval_duration_seconds',
  help: 'Knowledge-base searches of the chat',
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** What the job gauges read at each scrape: this instance's queue and the shared table's counts. */
export interface JobGaugeSource {
  running(): number;
  /** Queued and running jobs of every instance (one indexed count per state). */
  depth(): Promise<{ queued: number; running: number }>;
}

const jobSources = new Set<JobGaugeSource>();

/** Adds a queue to the job gauges until the returned function is called (its server closed). */
export function watchJobs(source: JobGaugeSource): () => void {
  jobSources.add(source);
  return () => jobSources.delete(source);
}

new Gauge({
  name: 'forja_jobs_running',
  help: 'Jobs running on this instance',
  registers: [registry],
  collect() {
    let running = 0;
    for (const source of jobSources) running += source.running();
    this.set(running);
  },
});

new Gauge({
  name: 'forja_jobs_queue_depth',
  help: 'Jobs in the shared queue by state (every instance)',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    const source = jobSources.values().next().value;
    if (!source) return;
    const depth = await source.depth().catch(() => null);
    if (!depth) return;
    this.set({ state: 'queued' }, depth.queued);
    this.set({ state: 'running' }, depth.running);
  },
});

/** A PostgreSQL pool's counts (pg.Pool's totalCount, idleCount, waitingCount). */
export interface PoolGaugeSource {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const pools = new Set<PoolGaugeSource>();

/** Adds a PostgreSQL pool to forja_db_pool_connections until the returned function is called. */
export function watchPool(pool: PoolGaugeSource): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

new Gauge({
  name: 'forja_db_pool_connections',
  help: "PostgreSQL connections of this instance's pool: open (total), idle, and requests waiting for one",
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

let defaultsCollected = false;

/** Process metrics (CPU, memory, GC, event-loop lag as nodejs_eventloop_lag_*), started once a server enables metrics. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}

/** One chat answer as its trace records it (server/chat/chat-service.ts). */
export function recordChatAnswer(trace: { provider: string; status: string; latency: number }): void {
  chatAnswers.inc({ provider: trace.provider, status: trace.status });
  chatAnswerDuration.observe({ provider: trace.provider, status: trace.status }, trace.latency / 1000);
}

/** The model's share of an answer: its latency and tokens. */
export function recordLlmCall(result: { provider: string; latencyMs: number; inputTokens: number; outputTokens: number }): void {
  llmDuration.observe({ provider: result.provider }, result.latencyMs / 1000);
  llmTokens.inc({ provider: result.provider, direction: 'input' }, Math.max(0, Math.round(result.inputTokens) || 0));
  llmTokens.inc({ provider: result.provider, direction: 'output' }, Math.max(0, Math.round(result.outputTokens) || 0));
}
