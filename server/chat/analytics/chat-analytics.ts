import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { EntityService } from '../../entities/entity-service.ts';
import { validationError } from '../../http/http-error.ts';
import type { ChatAnalytics } from '../../../contract/analytics/chat-analytics.ts';
import type { UnansweredQuestion } from '../../../contract/analytics/unanswered-question.ts';
import { NEGATIVE_REACTIONS, type NegativeAnswer } from '../../../contract/analytics/negative-answer.ts';

export interface AnalyticsQuery {
  botId: string | null;
  /** Inclusive days, YYYY-MM-DD (UTC). */
  from: string;
  to: string;
}

/** The trace status the chat writes when it had nothing to answer with (seeded). */
export const NO_ANSWER_STATUS = 'no_answer';
/** The unanswered list is a to-do list, not an export: the most recent ones. */
export const UNANSWERED_LIMIT = 50;

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
  const traces = service.definition('bottrace');
  const statuses = service.definition('bottracestatus').table;
  const end = new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString();
  const conditions: RawBuilder<unknown>[] = [sql`${col('createdAt')} >= ${`${query.from}T00:00:00.000Z`}`, sql`${col('createdAt')} < ${end}`];
  if (query.botId) conditions.push(sql`${col('bot')} = ${query.botId}`);
  if (tenantId !== null && traces.tenantColumn) conditions.push(sql`${sql.ref(traces.tenantColumn)} = ${tenantId}`);
  const where = sql.join(conditions, sql` AND `);
  const table = sql.table(traces.table);
  const isError = sql`${col('status')} IN (SELECT ${col('_id')} FROM ${sql.table(statuses)} WHERE name = 'error')`;
  const isNoAnswer = sql`${col('status')} IN (SELECT ${col('_id')} FROM ${sql.table(statuses)} WHERE name = ${NO_ANSWER_STATUS})`;
  const run = (query: RawBuilder<unknown>) => database.all(query.compile(database.kysely));

  const perDay = await run(sql`
    SELECT substr(${col('createdAt')}, 1, 10) AS day, COUNT(*) AS answers, SUM(CASE WHEN ${isError} THEN 1 ELSE 0 END) AS errors,
           SUM(CASE WHEN ${isNoAnswer} THEN 1 ELSE 0 END) AS unanswered,
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

  const unanswered = await unansweredQuestions(database, service, table, where, isNoAnswer);
  const negative = await negativeAnswers(database, service, table, where);
  const [noAnswerStatus] = await run(sql`SELECT ${col('_id')} FROM ${sql.table(statuses)} WHERE name = ${NO_ANSWER_STATUS}`);

  const days = perDay.map((row) => ({
    day: String(row.day),
    answers: Number(row.answers),
    errors: Number(row.errors ?? 0),
    unanswered: Number(row.unanswered ?? 0),
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
      unanswered: days.reduce((n, d) => n + d.unanswered, 0),
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
    unansweredQuestions: unanswered,
    negativeAnswers: negative,
    noAnswerStatus: noAnswerStatus ? String(noAnswerStatus._id) : null,
  };
}

/**
 * The no_answer traces grouped by question and bot, latest first, each with its bot's knowledge
 * base (where "add to knowledge" puts the answer) and its latest trace and conversation.
 */
async function unansweredQuestions(
  database: Database,
  service: EntityService,
  table: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
  isNoAnswer: RawBuilder<unknown>,
): Promise<UnansweredQuestion[]> {
  const col = (name: string) => sql.ref(name);
  const groups = await database.all(
    sql`
    SELECT ${col('userMessage')} AS question, ${col('bot')} AS bot, COUNT(*) AS count, MAX(${col('createdAt')}) AS ${col('lastAskedAt')}
    FROM ${table} WHERE ${where} AND ${isNoAnswer} AND ${col('userMessage')} IS NOT NULL
    GROUP BY ${col('userMessage')}, ${col('bot')} ORDER BY ${col('lastAskedAt')} DESC LIMIT ${UNANSWERED_LIMIT}`.compile(database.kysely),
  );
  if (groups.length === 0) return [];
  // The latest asking of each group: one query for all of them (same createdAt, question and bot).
  const latest = await database.all(
    sql`
    SELECT ${col('_id')}, ${col('conversation')}, ${col('userMessage')} AS question, ${col('bot')} AS bot, ${col('createdAt')}
    FROM ${table} WHERE ${where} AND ${isNoAnswer} AND ${col('createdAt')} IN (${sql.join(groups.map((row) => String(row.lastAskedAt)))})`.compile(database.kysely),
  );
  const key = (question: unknown, bot: unknown, at: unknown) => `${String(bot)}\u0000${String(at)}\u0000${String(question)}`;
  const latestByGroup = new Map(latest.map((row) => [key(row.question, row.bot, row.createdAt), row]));
  const botIds = [...new Set(groups.map((row) => String(row.bot)))];
  const bots = await database.all(
    sql`SELECT ${col('_id')}, ${col('name')}, ${col('knowledge')} FROM ${sql.table(service.definition('bot').table)} WHERE ${col('_id')} IN (${sql.join(botIds)})`.compile(database.kysely),
  );
  const botById = new Map(bots.map((row) => [String(row._id), row]));
  return groups.map((row) => {
    const trace = latestByGroup.get(key(row.question, row.bot, row.lastAskedAt));
    const bot = botById.get(String(row.bot));
    return {
      question: String(row.question),
      count: Number(row.count),
      lastAskedAt: String(row.lastAskedAt),
      bot: { _id: String(row.bot), name: bot?.name == null ? null : String(bot.name), knowledge: bot?.knowledge == null ? null : String(bot.knowledge) },
      trace: trace ? String(trace._id) : '',
      conversation: trace?.conversation == null ? null : String(trace.conversation),
    };
  });
}

/**
 * Answers rated Incorrect, Unhelpful or Unclear (a trace's reaction), latest first, at most
 * UNANSWERED_LIMIT, each with its bot's knowledge base for "add to knowledge".
 */
async function negativeAnswers(database: Database, service: EntityService, table: RawBuilder<unknown>, where: RawBuilder<unknown>): Promise<NegativeAnswer[]> {
  const col = (name: string) => sql.ref(name);
  const rows = await database.all(
    sql`
    SELECT ${col('_id')}, ${col('conversation')}, ${col('userMessage')} AS question, ${col('assistantMessage')} AS answer, ${col('reaction')}, ${col('bot')} AS bot, ${col('updatedAt')} AS ${col('ratedAt')}
    FROM ${table} WHERE ${where} AND ${col('reaction')} IN (${sql.join([...NEGATIVE_REACTIONS])}) AND ${col('userMessage')} IS NOT NULL
    ORDER BY ${col('updatedAt')} DESC LIMIT ${UNANSWERED_LIMIT}`.compile(database.kysely),
  );
  if (rows.length === 0) return [];
  const botIds = [...new Set(rows.map((row) => String(row.bot)))];
  const bots = await database.all(
    sql`SELECT ${col('_id')}, ${col('name')}, ${col('knowledge')} FROM ${sql.table(service.definition('bot').table)} WHERE ${col('_id')} IN (${sql.join(botIds)})`.compile(database.kysely),
  );
  const botById = new Map(bots.map((row) => [String(row._id), row]));
  return rows.map((row) => {
    const bot = botById.get(String(row.bot));
    return {
      question: String(row.question),
      answer: row.answer == null ? '' : String(row.answer),
      reaction: String(row.reaction),
      ratedAt: String(row.ratedAt),
      bot: { _id: String(row.bot), name: bot?.name == null ? null : String(bot.name), knowledge: bot?.knowledge == null ? null : String(bot.knowledge) },
      trace: String(row._id),
      conversation: row.conversation == null ? null : String(row.conversation),
    };
  });
}
