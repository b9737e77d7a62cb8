import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { EntityService } from '../../entities/entity-service.ts';
import { validationError } from '../../http/http-error.ts';

export interface AnalyticsQuery {
  botId: string | null;
  /** Inclusive days, YYYY-MM-DD (UTC). */
  from: string;
  to: string;
}

export interface ChatAnalytics {
  from: string;
  to: string;
  totals: { answers: number; errors: number; avgLatencyMs: number; tokens: number; reactions: number };
  perDay: { day: string; answers: number; errors: number; avgLatencyMs: number; inputTokens: number; outputTokens: number }[];
  latency: { bucket: string; answers: number }[];
  reactions: { reaction: string; count: number }[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 366;
/** Upper bounds (ms) of the latency histogram; the last bucket is open. */
const LATENCY_BUCKETS = [250, 500, 1000, 2000, 5000, 10000];

/** Reads the ?bot=&from=&to= query; default the last 30 days. */
export function parseAnalyticsQuery(query: Record<string, unknown>, today = new Date()): AnalyticsQuery {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const to = text(query.to) ?? today.toISOString().slice(0, 10);
  const from = text(query.from) ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const errors = [];
  if (!DAY.test(from) || Number.isNaN(Date.parse(from))) errors.push({ field: 'from', reason: 'validation.invalidValue' });
  if (!DAY.test(to) || Number.isNaN(Date.parse(to))) errors.push({ field: 'to', reason: 'validation.invalidValue' });
  if (errors.length === 0) {
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
    if (days < 0) errors.push({ field: 'from', reason: 'validation.invalidValue' });
    else if (days > MAX_DAYS) errors.push({ field: 'to', reason: 'validation.invalidValue' });
  }
  if (errors.length > 0) throw validationError(errors, `from and to must be days (YYYY-MM-DD), from <= to, at most ${MAX_DAYS} days apart`);
  return { botId: text(query.bot), from, to };
}

/**
 * Bot answers aggregated in SQL over bot_traces (one pass per chart, using the (field, createdAt)
 * indexes): per day, latency histogram, reactions. Scoped to the caller's tenant when they have one.
 */
export async function chatAnalytics(database: Database, service: EntityService, query: AnalyticsQuery, tenantId: string | null): Promise<ChatAnalytics> {
  // Quoted identifiers: the columns are camelCase and PostgreSQL folds unquoted names to lower case.
  const col = (name: string) => sql.ref(name);
  const traces = service.runtime('bottrace');
  const statuses = service.runtime('bottracestatus').table;
  const end = new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString();
  const conditions: RawBuilder<unknown>[] = [sql`${col('createdAt')} >= ${`${query.from}T00:00:00.000Z`}`, sql`${col('createdAt')} < ${end}`];
  if (query.botId) conditions.push(sql`${col('bot')} = ${query.botId}`);
  if (tenantId !== null && traces.tenantColumn) conditions.push(sql`${sql.ref(traces.tenantColumn)} = ${tenantId}`);
  const where = sql.join(conditions, sql` AND `);
  const table = sql.table(traces.table);
  const isError = sql`${col('status')} IN (SELECT ${col('_id')} FROM ${sql.table(statuses)} WHERE name = 'error')`;
  const run = (query: RawBuilder<unknown>) => database.all(query.compile(database.kysely));

  const perDay = await run(sql`
    SELECT substr(${col('createdAt')}, 1, 10) AS day, COUNT(*) AS answers, SUM(CASE WHEN ${isError} THEN 1 ELSE 0 END) AS errors,
           AVG(${col('latency')}) AS ${col('avgLatency')}, SUM(COALESCE(${col('inputTokens')}, 0)) AS ${col('inputTokens')}, SUM(COALESCE(${col('outputTokens')}, 0)) AS ${col('outputTokens')}
    FROM ${table} WHERE ${where} GROUP BY day ORDER BY day`);
  const bucketCase = sql.join(
    LATENCY_BUCKETS.map((limit, i) => sql`WHEN ${col('latency')} < ${limit} THEN ${i}`),
    sql` `,
  );
  const latency = await run(sql`
    SELECT CASE ${bucketCase} ELSE ${LATENCY_BUCKETS.length} END AS bucket, COUNT(*) AS answers
    FROM ${table} WHERE ${where} AND ${col('latency')} IS NOT NULL GROUP BY bucket ORDER BY bucket`);
  const reactions = await run(sql`
    SELECT ${col('reaction')}, COUNT(*) AS count FROM ${table} WHERE ${where} AND ${col('reaction')} IS NOT NULL GROUP BY ${col('reaction')} ORDER BY count DESC`);

  const days = perDay.map((row) => ({
    day: String(row.day),
    answers: Number(row.answers),
    errors: Number(row.errors ?? 0),
    avgLatencyMs: Math.round(Number(row.avgLatency ?? 0)),
    inputTokens: Number(row.inputTokens ?? 0),
    outputTokens: Number(row.outputTokens ?? 0),
  }));
  const answers = days.reduce((n, d) => n + d.answers, 0);
  const byBucket = new Map(latency.map((row) => [Number(row.bucket), Number(row.answers)]));
  const reactionRows = reactions.map((row) => ({ reaction: String(row.reaction), count: Number(row.count) }));
  return {
    from: query.from,
    to: query.to,
    totals: {
      answers,
      errors: days.reduce((n, d) => n + d.errors, 0),
      avgLatencyMs: answers === 0 ? 0 : Math.round(days.reduce((n, d) => n + d.avgLatencyMs * d.answers, 0) / answers),
      tokens: days.reduce((n, d) => n + d.inputTokens + d.outputTokens, 0),
      reactions: reactionRows.reduce((n, r) => n + r.count, 0),
    },
    perDay: days,
    latency: [...LATENCY_BUCKETS, Infinity].map((limit, i) => ({
      bucket: i === 0 ? `< ${limit / 1000} s` : limit === Infinity ? `≥ ${LATENCY_BUCKETS.at(-1)! / 1000} s` : `${LATENCY_BUCKETS[i - 1] / 1000}–${limit / 1000} s`,
      answers: byBucket.get(i) ?? 0,
    })),
    reactions: reactionRows,
  };
}
