import type { Database } from '../../db/database.ts';
import { scopeConditions } from '../../entities/entity-query.ts';
import type { EntityRecord, EntityService } from '../../entities/entity-service.ts';
import { decodeRow } from '../../entities/record-codec.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { trainingKey } from '../api/training-jobs.ts';

/**
 * Where a knowledge base's index stands against its content, as the read-only `indexState` every
 * read of a knowledge record carries: a training queued or running; never trained; trained but
 * behind (a source added, changed or removed since, or the base's own texts, files or links edited
 * after it); or trained and current. The console's list shows it per row and the base's page
 * beside its per-source states (src/knowledge/source-state.ts, the same rule).
 *
 * Derived on each read, never written: a source edit or a job's progress would otherwise have to
 * rewrite every base that uses it. The manifest declares the field (manifests/knowledge.json) so
 * REST, GraphQL, OpenAPI and the console's types all know it; its column stays empty, which is
 * why it is neither filterable nor sortable nor exported.
 */
export type KnowledgeIndexState = 'training' | 'notTrained' | 'needsRetraining' | 'trained';

export const INDEX_STATE_FIELD = 'indexState';

/** What the last training recorded per source (manifests/knowledge.json trainedSources). */
interface TrainedSource {
  source: string;
  version: string | null;
}

/** Ids per query: a page of bases with many sources stays one query in practice, never one per base. */
const IDS_PER_QUERY = 1000;
/** The job queue's table (server/jobs/job-store.ts): not an entity, so read directly. */
const JOBS_TABLE = 'forja_jobs';
const ACTIVE_JOB_STATES = ['queued', 'running'];

/**
 * The state of one base, given the updatedAt of each of its sources the caller can see (a source
 * that is gone is absent from `sourceVersions`) and whether a training of it is queued or running.
 */
export function knowledgeIndexState(knowledge: EntityRecord, sourceVersions: ReadonlyMap<string, string | null>, training: boolean): KnowledgeIndexState {
  if (training) return 'training';
  const trainedAt = typeof knowledge.trainedAt === 'string' && knowledge.trainedAt !== '' ? knowledge.trainedAt : null;
  if (trainedAt === null) return 'notTrained';
  const current = refIds(knowledge.sources).filter((id) => sourceVersions.has(id));
  // Absent on bases trained before trainedSources existed: their sources fall back to timestamps.
  const trained = Array.isArray(knowledge.trainedSources) ? (knowledge.trainedSources as TrainedSource[]) : null;
  if (trained === null) {
    if (current.some((id) => (sourceVersions.get(id) ?? '') > trainedAt)) return 'needsRetraining';
  } else {
    const byId = new Map(trained.map((entry) => [entry.source, entry]));
    for (const id of current) {
      const entry = byId.get(id);
      if (!entry || (entry.version ?? null) !== (sourceVersions.get(id) ?? null)) return 'needsRetraining';
    }
    const kept = new Set(current);
    if (trained.some((entry) => !kept.has(entry.source))) return 'needsRetraining';
  }
  const ownContent = ['texts', 'files', 'urls'].some((field) => Array.isArray(knowledge[field]) && (knowledge[field] as unknown[]).length > 0);
  if (ownContent && typeof knowledge.updatedAt === 'string' && knowledge.updatedAt > trainedAt) return 'needsRetraining';
  return 'trained';
}

/**
 * Registers `indexState` on every knowledge read. A list page costs two queries whatever its
 * size (its sources' updatedAt, its trainings in the job queue), not two per row.
 */
export function registerKnowledgeIndexState(service: EntityService, database: Database): void {
  service.hooks.add('knowledge', {
    async afterReadAll({ context, records }) {
      const [versions, training] = await Promise.all([
        sourceVersions(service, database, context, [...new Set(records.flatMap((record) => refIds(record.sources)))]),
        activeTrainings(database, records.map((record) => String(record._id))),
      ]);
      for (const record of records) record[INDEX_STATE_FIELD] = knowledgeIndexState(record, versions, training.has(String(record._id)));
    },
  });
}

/**
 * updatedAt of the sources the caller may see, decoded as reads decode it (the trained version is
 * the decoded value). Only two columns: the service would read every source's full text and chunks.
 */
async function sourceVersions(service: EntityService, database: Database, context: RequestContext, ids: string[]): Promise<Map<string, string | null>> {
  const definition = service.definition('knowledgesource');
  const scope = service.scopeFor(definition, context);
  const versions = new Map<string, string | null>();
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await database.all(
      database.kysely
        .selectFrom(definition.table)
        .select(['_id', 'updatedAt'])
        .where((eb) => eb.and([eb('_id', 'in', ids.slice(start, start + IDS_PER_QUERY)), ...scopeConditions(definition, scope, eb)]))
        .compile(),
    );
    for (const row of rows) {
      const record = decodeRow(definition, database.dialect, row);
      versions.set(String(record._id), typeof record.updatedAt === 'string' ? record.updatedAt : null);
    }
  }
  return versions;
}

/** Ids of the bases whose training is queued or running (one per base at most: the queue's singleton key). */
async function activeTrainings(database: Database, knowledgeIds: string[]): Promise<Set<string>> {
  const training = new Set<string>();
  const prefix = trainingKey('');
  for (let start = 0; start < knowledgeIds.length; start += IDS_PER_QUERY) {
    const keys = knowledgeIds.slice(start, start + IDS_PER_QUERY).map(trainingKey);
    const rows = await database.all(
      database.kysely
        .selectFrom(JOBS_TABLE)
        .select('singleton_key')
        .where('singleton_key', 'in', keys)
        .where('state', 'in', ACTIVE_JOB_STATES)
        .compile(),
    );
    for (const row of rows) training.add(String(row.singleton_key).slice(prefix.length));
  }
  return training;
}

/** Ids of an array.ref as stored or populated ({ _id, name }, or null for a deleted record). */
function refIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((ref) => (typeof ref === 'string' ? ref : ref && typeof ref === 'object' ? (ref as { _id?: unknown })._id : null))
    .filter((id): id is string => typeof id === 'string' && id !== '');
}
