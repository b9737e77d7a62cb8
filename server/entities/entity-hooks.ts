import type { RequestContext } from '../http/request-context.ts';
import type { RecordScope } from './entity-query.ts';
import type { RawQuery } from './list-query.ts';

export type EntityRecord = Record<string, unknown>;

/** One write as the lifecycle hooks see it. */
export interface WriteEvent {
  entity: string;
  operation: 'create' | 'update' | 'delete';
  context: RequestContext;
  /** null on create (the id is not chosen yet). */
  id: string | null;
  /**
   * What the write sets. beforeValidate: the sanitised body as sent (a hook may change it; what
   * it leaves is validated). beforeChange/afterChange: the validated body (create: with
   * defaults, the forced tenant and owner; update: only the fields sent, secrets still in
   * clear). Empty on delete.
   */
  data: Record<string, unknown>;
  /** The stored record before the write (update, delete), decoded; secret fields absent. */
  original: EntityRecord | null;
}

/** A create about to be inserted: `values` is what will be stored, `reply` extras for the response. */
export interface InsertEvent {
  entity: string;
  context: RequestContext;
  values: Record<string, unknown>;
  reply: Record<string, unknown>;
}

/** A record on its way out of a read (or a write's answer); the hook may change it in place. */
export interface ReadEvent {
  entity: string;
  context: RequestContext;
  record: EntityRecord;
}

/** Every record of one read (a list page, a find, a write's answer); the hook may change them in place. */
export interface ReadAllEvent {
  entity: string;
  context: RequestContext;
  records: EntityRecord[];
}

/**
 * Rules of one entity that the manifest cannot express, registered by features in the
 * EntityHookRegistry (server/entities/README.md, "Lifecycle hooks"). Order of a create:
 * `writeLock` wraps everything; sanitise; `beforeValidate`; defaults; validation; tenant and
 * owner forced; ref checks; `beforeChange`; uniqueness; `beforeInsert`; secrets encoded; the
 * INSERT; read back (`afterRead`); `afterChange`. Update: `writeLock`; load (scoped, 404);
 * sanitise; `beforeValidate`; merge and validation; ref checks; `beforeChange`; uniqueness; the
 * UPDATE; read back (`afterRead`); `afterChange`. Delete: `writeLock`; load (scoped, 404);
 * `beforeDelete`; the DELETE. A hook that throws (an HttpError) stops the write; hooks up to
 * `beforeInsert` run before anything is written. Hooks of one entity run in registration order.
 */
export interface EntityHooks {
  /** Narrows what a caller reaches (reads and writes), e.g. a tenant user to their own tenant record. */
  scope?(context: RequestContext): Partial<RecordScope> | null;
  /** Before validation: may normalise `data` (the sanitised body), or refuse the write. */
  beforeValidate?(event: WriteEvent): Promise<void> | void;
  /** After validation and ref checks, before uniqueness and the write: the place for access rules. */
  beforeChange?(event: WriteEvent): Promise<void> | void;
  /**
   * Last step of a create before its INSERT is built: may set fields no caller may send (a
   * secret's hash, who created the record) in `values`, and add to `reply` what that one
   * response shows besides the stored record (an API key's secret in clear, shown once).
   * Imports run it too, without a response.
   */
  beforeInsert?(event: InsertEvent): Promise<void> | void;
  /** After the write, with the record as stored (imports: once per created record). */
  afterChange?(event: WriteEvent & { record: EntityRecord }): Promise<void> | void;
  /**
   * Every record a read returns (list, find, by id, by ids, a write's answer), after refs are
   * populated. Not run by exports, which stream rows (use `exportQuery` to shape an export).
   */
  afterRead?(event: ReadEvent): Promise<void> | void;
  /**
   * Once per read, with every record it returns (a list page at once), before `afterRead`: the
   * place for state derived from other tables, read for the whole page in one query instead of
   * one per record. Not run by exports. A property added here that is no field comes back in
   * bodies sent as read: drop it in `beforeValidate`.
   */
  afterReadAll?(event: ReadAllEvent): Promise<void> | void;
  /** After the record is loaded (scoped: 404 first), before the DELETE. */
  beforeDelete?(event: WriteEvent): Promise<void> | void;
  /** An export's raw query parameters, before they are parsed (e.g. another filter syntax). */
  exportQuery?(query: RawQuery): RawQuery;
  /**
   * Wraps a whole create, update, delete or import (checks, hooks and the write), e.g. in a
   * lock so the checks and the write are one step (server/identity/identity-write-lock.ts). The
   * first hook set of the entity that has one is used. A hook running under it must not write
   * the same entity through the service again (it would wait for itself).
   */
  writeLock?<T>(work: () => Promise<T>): Promise<T>;
}

type EventStage = 'beforeValidate' | 'beforeChange' | 'beforeDelete';

/**
 * Every entity's lifecycle hooks, registered by the features at start-up (identity:
 * server/identity/access-rules.ts, api-key-routes.ts, users-export-filters.ts). An entity with
 * no hooks pays nothing: the service asks `has` before loading what a hook would need.
 */
export class EntityHookRegistry {
  private readonly byEntity = new Map<string, EntityHooks[]>();

  /** `knows` throws for an entity that does not exist, so a typo fails at start-up. */
  constructor(private readonly knows: (entity: string) => void) {}

  add(entity: string, hooks: EntityHooks): void {
    this.knows(entity);
    this.byEntity.set(entity, [...(this.byEntity.get(entity) ?? []), hooks]);
  }

  of(entity: string): readonly EntityHooks[] {
    return this.byEntity.get(entity) ?? [];
  }

  has(entity: string, stage: keyof EntityHooks): boolean {
    return this.of(entity).some((hooks) => hooks[stage] !== undefined);
  }

  async run(stage: EventStage, event: WriteEvent): Promise<void> {
    for (const hooks of this.of(event.entity)) await hooks[stage]?.(event);
  }

  async afterChange(event: WriteEvent & { record: EntityRecord }): Promise<void> {
    for (const hooks of this.of(event.entity)) await hooks.afterChange?.(event);
  }

  async beforeInsert(event: InsertEvent): Promise<void> {
    for (const hooks of this.of(event.entity)) await hooks.beforeInsert?.(event);
  }

  async afterRead(entity: string, context: RequestContext, records: EntityRecord[]): Promise<void> {
    if (records.length > 0) for (const hooks of this.of(entity)) await hooks.afterReadAll?.({ entity, context, records });
    const stages = this.of(entity).filter((hooks) => hooks.afterRead);
    if (stages.length === 0) return;
    for (const record of records) for (const hooks of stages) await hooks.afterRead!({ entity, context, record });
  }

  scope(entity: string, context: RequestContext, scope: RecordScope): void {
    for (const hooks of this.of(entity)) Object.assign(scope, hooks.scope?.(context) ?? {});
  }

  exportQuery(entity: string, query: RawQuery): RawQuery {
    return this.of(entity).reduce((current, hooks) => hooks.exportQuery?.(current) ?? current, query);
  }

  underWriteLock<T>(entity: string, work: () => Promise<T>): Promise<T> {
    const hooks = this.of(entity).find((h) => h.writeLock);
    return hooks ? hooks.writeLock!(work) : work();
  }
}
