import type { CompiledQuery } from 'kysely';
import type { FieldModel } from '../../contract/model/entity-model.ts';
import type { Database, Row, RowBatch } from '../db/database.ts';
import { HttpError, notFound, validationError, type InputError } from '../http/http-error.ts';
import { hasPermission, type RequestContext } from '../http/request-context.ts';
import { compileCountList, compileSelectById, compileSelectList, scopeConditions, type RecordScope } from './entity-query.ts';
import { definitionOf, type EntityDefinition, type EntityDefinitions } from './entity-definition.ts';
import { isBlank } from './entity-validator.ts';
import { MAX_LIMIT, type ListQuery } from './list-query.ts';
import { newRecordId } from './new-record-id.ts';
import { populateRefs } from './populate-refs.ts';
import { decodeBatch, decodeRow, decodeRows, encodeValues } from './record-codec.ts';
import { sanitiseBody } from './sanitise-body.ts';
import { SECRET_ENCODERS } from './secret-encoders.ts';
import { EntityHookRegistry, type EntityHooks, type EntityRecord, type WriteEvent } from './entity-hooks.ts';
import { isSystemContext } from './system-context.ts';
import type { InsertChecks } from './import-batch-checks.ts';
import { compileInsert } from './compile-insert.ts';
import { RecordReferences } from './record-references.ts';

export type { EntityHooks, EntityRecord, InsertEvent, ReadEvent, WriteEvent } from './entity-hooks.ts';

/** How a read answers. */
export interface ReadOptions {
  /**
   * false: refs stay ids instead of `{ _id, <display> }` (no query per referenced entity). For
   * features that want the ids, on hot paths (the chat reads its bot and conversation per message).
   */
  populate?: boolean;
}

/** How a create is stored and answered. */
export interface CreateOptions extends ReadOptions {
  /**
   * The new record's _id, instead of a time-ordered one: system() only. The chat's conversation
   * ids are random (the visitor's only key to it must not be guessable).
   */
  id?: string;
}

/** How an update is stored and answered. */
export interface UpdateOptions extends ReadOptions {
  /**
   * false: updatedAt keeps its value. For system() writes of state derived by the server (a
   * knowledge base's training outcome), which are not an edit of the record by anyone.
   */
  touch?: boolean;
}

/** Ids per query when checking that refs exist. */
const REF_CHECK_CHUNK = 500;

export const REF_NOT_FOUND_REASON = 'validation.refNotFound';
export const UNIQUE_REASON = 'validation.unique';

/** A create that passed every check, ready to insert (import batches many of them). */
export interface PreparedInsert {
  id: string;
  query: CompiledQuery;
  /** Unique field values, so an import can also catch duplicates within its own rows. */
  uniqueValues: { field: string; value: unknown; tenant: unknown }[];
}

/**
 * The generic, manifest-driven CRUD behind every `api.endpoints: generic` entity, and the one path to
 * entity data (server/entities/README.md). Every method takes the caller's context and confines
 * itself to the records that caller may see (tenant, owner, hooks' scope); features acting on
 * their own behalf pass system() (system-context.ts). Lifecycle hooks: entity-hooks.ts.
 */
export class EntityService {
  /**
   * List totals by query, valid while the database's change token stays the same. A count is
   * O(matching rows) (tens of ms on a million rows) and a table page asks for the same total
   * again and again while paging, so it is worth remembering until anything is written.
   */
  private readonly totals = new Map<string, { token: string; total: Promise<number> }>();
  /** Lifecycle hooks registered by features (entity-hooks.ts for the order they run in). */
  readonly hooks: EntityHookRegistry;
  /** Who points at a record: deletes are refused while it is in use (record-references.ts). */
  private readonly references: RecordReferences;

  constructor(
    private readonly database: Database,
    readonly definitions: EntityDefinitions,
  ) {
    this.hooks = new EntityHookRegistry((entity) => this.definition(entity));
    this.references = new RecordReferences(database, definitions);
  }

  /**
   * 403 unless the caller may write the entity at all: a table every tenant shares (manifest
   * `scope.writes: "platform"`, e.g. trace statuses, roles, tenants) is written by platform
   * users (no tenant) and system() only; tenant users still read it. Creates, updates, deletes
   * and imports all call it, before anything else is looked at.
   */
  requireWriter(definition: EntityDefinition, context: RequestContext): void {
    if (!definition.platformWrites || context.tenantId === null || isSystemContext(context)) return;
    throw new HttpError(403, `${definition.model.typeName} records are shared by every tenant: only platform administrators (users without a tenant) may create, change or delete them`, {
      i18nMessage: 'error.platformOnly',
    });
  }

  definition(entity: string): EntityDefinition {
    return definitionOf(this.definitions, entity);
  }

  /** Registers lifecycle hooks of one entity (see EntityHooks for when each runs). */
  addHooks(entity: string, hooks: EntityHooks): void {
    this.hooks.add(entity, hooks);
  }

  /**
   * Runs `work` under the entity's `writeLock` hook (e.g. a lock), as its writes run; imports
   * use it, and run their write and its afterChange hooks in a Database.transaction of their own.
   */
  underWriteLock<T>(entity: string, work: () => Promise<T>): Promise<T> {
    return this.hooks.underWriteLock(entity, work);
  }

  /** Tenant users see their tenant only; "own only" callers (e.g. userApiKey:myView) their records. */
  scopeFor(definition: EntityDefinition, context: RequestContext): RecordScope {
    const p = definition.model.permissions;
    const ownOnly =
      !hasPermission(context, p.view) &&
      !hasPermission(context, p.manage) &&
      (hasPermission(context, p.viewOwn) || hasPermission(context, p.createOwn));
    const scope: RecordScope = {
      tenantId: definition.tenantColumn ? context.tenantId : null,
      ownerId: definition.ownerColumn && context.userId && ownOnly ? context.userId : null,
    };
    this.hooks.scope(definition.model.name, context, scope);
    return scope;
  }

  async paginate(entity: string, context: RequestContext, query: ListQuery): Promise<{ items: EntityRecord[]; total: number }> {
    const definition = this.definition(entity);
    const scope = this.scopeFor(definition, context);
    const [batch, total] = await Promise.all([
      this.database.read(compileSelectList(this.database, definition, scope, query, definition.selectColumns)),
      this.count(compileCountList(this.database, definition, scope, query)),
    ]);
    return { items: await this.toRecords(definition, batch, context), total };
  }

  private async count(query: CompiledQuery): Promise<number> {
    const key = query.sql + '\u0000' + JSON.stringify(query.parameters);
    const token = this.database.changeToken();
    const cached = this.totals.get(key);
    if (cached && cached.token === token) return cached.total;
    // The promise is remembered, not the number: sixteen tables opening the same search at once
    // wait for one count instead of running sixteen scans of a million rows side by side.
    const total = this.database.first(query).then((row) => Number(row?.total ?? 0));
    if (this.totals.size >= 1000) this.totals.clear();
    const entry = { token, total };
    this.totals.set(key, entry);
    total.catch(() => {
      if (this.totals.get(key) === entry) this.totals.delete(key);
    });
    return total;
  }

  async find(entity: string, context: RequestContext, query: ListQuery, options: ReadOptions = {}): Promise<EntityRecord[]> {
    const definition = this.definition(entity);
    const batch = await this.database.read(compileSelectList(this.database, definition, this.scopeFor(definition, context), query, definition.selectColumns));
    return this.toRecords(definition, batch, context, options);
  }

  async findOne(entity: string, context: RequestContext, query: ListQuery): Promise<EntityRecord> {
    const [first] = await this.find(entity, context, { ...query, limit: 1, offset: 0 });
    if (!first) throw notFound(`No ${entity} matches`);
    return first;
  }

  async findById(entity: string, context: RequestContext, id: string, options: ReadOptions = {}): Promise<EntityRecord> {
    const definition = this.definition(entity);
    const batch = await this.database.read(compileSelectById(this.database, definition, this.scopeFor(definition, context), id, definition.selectColumns));
    if (batch.rows.length === 0) throw notFound(`${entity} ${id} not found`);
    const [record] = await this.toRecords(definition, batch, context, options);
    return record;
  }

  /** Records in the order of `ids`; ids that do not exist (or are out of scope) are skipped. */
  async findByIds(entity: string, context: RequestContext, ids: string[], options: ReadOptions = {}): Promise<EntityRecord[]> {
    if (ids.length > MAX_LIMIT) throw new HttpError(400, `At most ${MAX_LIMIT} ids per call; got ${ids.length}`);
    if (ids.length === 0) return [];
    const definition = this.definition(entity);
    const scope = this.scopeFor(definition, context);
    const batch = await this.database.read(
      this.database.kysely
        .selectFrom(definition.table)
        .select(definition.selectColumns)
        .where((eb) => eb.and([eb('_id', 'in', ids), ...scopeConditions(definition, scope, eb)]))
        .compile(),
    );
    const idColumn = batch.columns.indexOf('_id');
    const byId = new Map(batch.rows.map((row) => [String(row[idColumn]), row]));
    const ordered = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    return this.toRecords(definition, { columns: batch.columns, rows: ordered }, context, options);
  }

  async create(entity: string, context: RequestContext, body: unknown, options: CreateOptions = {}): Promise<EntityRecord> {
    if (options.id !== undefined && !isSystemContext(context)) throw new Error('create(..., { id }) is for system() writes only');
    return this.hooks.underWriteLock(entity, () => this.database.transaction(() => this.createNow(entity, context, body, options)));
  }

  private async createNow(entity: string, context: RequestContext, body: unknown, options: CreateOptions): Promise<EntityRecord> {
    const definition = this.definition(entity);
    const prepared = await this.prepareInsert(definition, context, body, undefined, options.id);
    if (!prepared.ok) throw this.rejection(prepared.errors, prepared.status);
    await this.database.run(prepared.insert.query).catch((error: unknown) => {
      throw this.uniqueViolation(definition, error, prepared.insert.uniqueValues.map((u) => u.field));
    });
    const record = await this.findById(entity, context, prepared.insert.id, options);
    await this.hooks.afterChange({ entity, operation: 'create', context, id: prepared.insert.id, data: prepared.values, original: null, record });
    return { ...record, ...prepared.reply };
  }

  /**
   * Validates a create body and builds its INSERT without running it. Used by create and by
   * import (which runs all its inserts in one transaction, and passes `checks`: its ref and
   * unique lookups done per slice of rows, import-batch-checks.ts).
   */
  async prepareInsert(
    definition: EntityDefinition,
    context: RequestContext,
    body: unknown,
    checks?: InsertChecks,
    /** A system() create's chosen _id (CreateOptions.id); otherwise a new time-ordered one. */
    chosenId?: string,
  ): Promise<{ ok: true; insert: PreparedInsert; values: Record<string, unknown>; reply: Record<string, unknown> } | { ok: false; errors: InputError[]; status: 400 | 409 }> {
    const entity = definition.model.name;
    this.requireWriter(definition, context);
    const input = sanitiseBody(definition, body);
    if (this.hooks.has(entity, 'beforeValidate')) {
      await this.hooks.run('beforeValidate', { entity, operation: 'create', context, id: null, data: input, original: null });
    }
    for (const field of definition.model.fields) {
      if (input[field.name] === undefined && !field.readonly && field.default !== null) {
        input[field.name] = structuredClone(field.default);
      }
    }
    const errors = definition.validateCreate(input);
    if (errors.length > 0) return { ok: false, errors, status: 400 };
    const values: Record<string, unknown> = { ...input };
    // A read-only field is not the caller's to set, but it still starts at its default (a role
    // created through the API is not read-only: false, not null).
    for (const field of definition.model.fields) {
      if (field.readonly && values[field.name] === undefined && field.default !== null) values[field.name] = structuredClone(field.default);
    }
    this.systemReadonly(definition, context, body, values);
    const { tenantColumn, ownerColumn } = definition;
    if (tenantColumn) {
      // A tenant user always writes into their own tenant, whatever the body says.
      if (context.tenantId !== null) values[tenantColumn] = context.tenantId;
      else if (!definition.fields.has(tenantColumn)) values[tenantColumn] = null;
    }
    if (ownerColumn && context.userId) values[ownerColumn] = context.userId;
    const refErrors = await this.missingRefs(definition, context, input, checks);
    if (refErrors.length > 0) return { ok: false, errors: refErrors, status: 400 };
    await this.hooks.run('beforeChange', { entity, operation: 'create', context, id: null, data: { ...values }, original: null });
    const tenant = tenantColumn ? (values[tenantColumn] ?? null) : null;
    const uniqueErrors = await this.duplicates(definition, input, tenant, null, checks);
    if (uniqueErrors.length > 0) return { ok: false, errors: uniqueErrors, status: 409 };
    const reply: Record<string, unknown> = {};
    await this.hooks.beforeInsert({ entity, context, values, reply });
    const clear = { ...values };
    await this.encodeSecrets(definition, values);
    const id = chosenId ?? newRecordId();
    const now = new Date().toISOString();
    const row = encodeValues(definition, this.database.dialect, { ...values, _id: id, createdAt: now, updatedAt: now });
    return {
      ok: true,
      values: clear,
      reply,
      insert: {
        id,
        query: compileInsert(this.database, definition.table, row),
        uniqueValues: definition.uniqueFields
          .filter((f) => input[f.name] !== undefined && input[f.name] !== null)
          .map((f) => ({ field: f.name, value: input[f.name], tenant: f.validation.uniqueGlobal ? null : tenant })),
      },
    };
  }

  /**
   * Partial update: the body is merged over the stored record and the merge is validated, so a
   * PUT may send only what changed but can never blank a required field. Only the fields in
   * the body are written (secret fields keep their stored value unless sent).
   */
  async update(entity: string, context: RequestContext, id: string, body: unknown, options: UpdateOptions = {}): Promise<EntityRecord> {
    if (options.touch === false && !isSystemContext(context)) throw new Error('update(..., { touch: false }) is for system() writes only');
    return this.hooks.underWriteLock(entity, () => this.database.transaction(() => this.updateNow(entity, context, id, body, options)));
  }

  private async updateNow(entity: string, context: RequestContext, id: string, body: unknown, options: UpdateOptions): Promise<EntityRecord> {
    const definition = this.definition(entity);
    const scope = this.scopeFor(definition, context);
    const row = await this.loadRow(definition, scope, id);
    if (!row) throw notFound(`${entity} ${id} not found`);
    this.requireWriter(definition, context);
    const input = sanitiseBody(definition, body);
    const hooked = this.hooks.of(entity).length > 0;
    const original = hooked ? (await this.toRecords(definition, [row]))[0] : null;
    if (hooked) await this.hooks.run('beforeValidate', { entity, operation: 'update', context, id, data: input, original });
    const { tenantColumn } = definition;
    // Moving a record to another tenant is not a tenant user's call.
    if (tenantColumn && context.tenantId !== null) delete input[tenantColumn];
    const stored = decodeRow(definition, this.database.dialect, row);
    const merged: Record<string, unknown> = {};
    for (const field of definition.model.fields) {
      // Stored nulls count as absent: a column added by a migration is NULL in old rows.
      if (!field.readonly && !field.secret && stored[field.name] !== null && stored[field.name] !== undefined) {
        merged[field.name] = stored[field.name];
      }
    }
    Object.assign(merged, input);
    const errors = definition.validateUpdate(merged);
    if (errors.length > 0) throw this.rejection(errors, 400);
    const refErrors = await this.missingRefs(definition, context, input);
    if (refErrors.length > 0) throw this.rejection(refErrors, 400);
    const readonlyValues: Record<string, unknown> = {};
    this.systemReadonly(definition, context, body, readonlyValues);
    const event: WriteEvent = { entity, operation: 'update', context, id, data: { ...input, ...readonlyValues }, original };
    await this.hooks.run('beforeChange', event);
    const tenant = tenantColumn ? (merged[tenantColumn] ?? stored[tenantColumn] ?? null) : null;
    const uniqueErrors = await this.duplicates(definition, input, tenant, id);
    if (uniqueErrors.length > 0) throw this.rejection(uniqueErrors, 409);
    await this.encodeSecrets(definition, input);
    const values = encodeValues(definition, this.database.dialect, {
      ...input,
      ...readonlyValues,
      ...(options.touch === false ? {} : { updatedAt: new Date().toISOString() }),
    });
    await this.database.run(
      this.database.kysely
        .updateTable(definition.table)
        .set(values)
        .where((eb) => eb.and([eb('_id', '=', id), ...scopeConditions(definition, scope, eb)]))
        .compile(),
    ).catch((error: unknown) => {
      throw this.uniqueViolation(definition, error, Object.keys(input));
    });
    const record = await this.findById(entity, context, id, options);
    await this.hooks.afterChange({ ...event, record });
    return record;
  }

  async delete(entity: string, context: RequestContext, id: string): Promise<void> {
    return this.hooks.underWriteLock(entity, () => this.database.transaction(() => this.deleteNow(entity, context, id)));
  }

  private async deleteNow(entity: string, context: RequestContext, id: string): Promise<void> {
    const definition = this.definition(entity);
    const scope = this.scopeFor(definition, context);
    // Loaded first, so a record out of the caller's scope is a 404 before anything says it exists.
    const row = await this.loadRow(definition, scope, id);
    if (!row) throw notFound(`${entity} ${id} not found`);
    this.requireWriter(definition, context);
    if (this.hooks.has(entity, 'beforeDelete')) {
      const [original] = await this.toRecords(definition, [row]);
      await this.hooks.run('beforeDelete', { entity, operation: 'delete', context, id, data: {}, original });
    }
    // In use: refused (409 with the counts); optional refs declared onDelete "clear" are emptied
    // in this same transaction. A required reference is never left pointing at nothing.
    await this.references.refuseInUse(definition, id, String(row[definition.model.displayField] ?? id));
    await this.references.clear(definition, id);
    const changes = await this.database.run(
      this.database.kysely
        .deleteFrom(definition.table)
        .where((eb) => eb.and([eb('_id', '=', id), ...scopeConditions(definition, scope, eb)]))
        .compile(),
    );
    if (changes === 0) throw notFound(`${entity} ${id} not found`);
  }

  /**
   * Decoded, ref-populated records of raw rows; with a context, as that caller reads them
   * (afterRead hooks run). Without one (exports), the rows as stored.
   */
  async toRecords(definition: EntityDefinition, rows: readonly Row[] | RowBatch, context?: RequestContext, options: ReadOptions = {}): Promise<EntityRecord[]> {
    const { dialect } = this.database;
    const records = Array.isArray(rows) ? decodeRows(definition, dialect, rows) : decodeBatch(definition, dialect, rows as RowBatch);
    if (options.populate !== false) await populateRefs(this.database, this.definitions, definition, records);
    if (context) await this.hooks.afterRead(definition.model.name, context, records);
    return records;
  }

  /**
   * system() may set read-only fields (a seeded role's `readonly`, a record's metadata): copied
   * from the raw body into `values`, unvalidated (the caller is the server itself). Anyone
   * else's read-only fields were dropped by sanitiseBody.
   */
  private systemReadonly(definition: EntityDefinition, context: RequestContext, body: unknown, values: Record<string, unknown>): void {
    if (!isSystemContext(context)) return;
    const raw = body as Record<string, unknown>;
    for (const field of definition.model.fields) {
      if (field.readonly && Object.hasOwn(raw, field.name) && raw[field.name] !== undefined) values[field.name] = raw[field.name];
    }
  }

  /** Unique violations answer 409 (the record conflicts with another), other input errors 400. */
  rejection(errors: InputError[], status: 400 | 409): HttpError {
    return validationError(errors, status === 409 ? 'A record with the same value already exists' : 'Validation failed', status);
  }

  /**
   * A unique index refused the write (two requests raced past the duplicate check): the same
   * 409 the check gives, naming the field(s) when the database says which. Anything else is
   * passed through unchanged.
   */
  private uniqueViolation(definition: EntityDefinition, error: unknown, candidates: string[]): unknown {
    const e = error as { code?: unknown; message?: unknown; constraint?: unknown; detail?: unknown };
    if (!this.database.dialect.isUniqueViolation(error)) return error;
    const text = `${String(e.message ?? '')} ${String(e.constraint ?? '')} ${String(e.detail ?? '')}`;
    const unique = definition.uniqueFields.filter((f) => candidates.includes(f.name));
    const named = unique.filter((f) => new RegExp(`\\b${f.name}\\b`).test(text));
    const fields = named.length > 0 ? named : unique;
    if (fields.length === 0) return error;
    return this.rejection(fields.map((f) => ({ field: f.name, reason: f.validation.messages.unique ?? UNIQUE_REASON })), 409);
  }

  /** Secret fields in `values` replaced, in place, by their stored form (password -> hash). */
  private async encodeSecrets(definition: EntityDefinition, values: Record<string, unknown>): Promise<void> {
    for (const field of definition.model.fields) {
      const value = values[field.name];
      if (!field.secret || typeof value !== 'string') continue;
      const encode = SECRET_ENCODERS[field.type];
      if (encode) values[field.name] = await encode(value);
    }
  }

  private async loadRow(definition: EntityDefinition, scope: RecordScope, id: string) {
    return this.database.first(compileSelectById(this.database, definition, scope, id, definition.selectColumns));
  }

  /** Ref ids in the input that point at no record the caller can see. */
  private async missingRefs(definition: EntityDefinition, context: RequestContext, input: Record<string, unknown>, checks?: InsertChecks): Promise<InputError[]> {
    const errors: InputError[] = [];
    for (const field of definition.refFields) {
      const value = input[field.name];
      const ids = field.type === 'array.ref' ? (Array.isArray(value) ? value : []) : isBlank(value) || value === undefined ? [] : [value];
      if (ids.length === 0) continue;
      const target = this.definition(field.ref!.entity);
      const scope: RecordScope = { tenantId: target.tenantColumn ? context.tenantId : null, ownerId: null };
      // In chunks: one `IN (...)` with every id of a huge list exceeds the database's bound
      // parameters (SQLite: 32,766) and was a 500 (tests/fuzz).
      const existing = new Set<string>();
      const unique = [...new Set(ids.map(String))].filter((id) => {
        const known = checks?.refExists(target, id);
        if (known) existing.add(id);
        return known === undefined;
      });
      for (let start = 0; start < unique.length; start += REF_CHECK_CHUNK) {
        const rows = await this.database.all(
          this.database.kysely
            .selectFrom(target.table)
            .select('_id')
            .where((eb) => eb.and([eb('_id', 'in', unique.slice(start, start + REF_CHECK_CHUNK)), ...scopeConditions(target, scope, eb)]))
            .compile(),
        );
        for (const row of rows) existing.add(String(row._id));
      }
      ids.forEach((id, index) => {
        if (!existing.has(String(id))) {
          errors.push({ field: field.type === 'array.ref' ? `${field.name}.${index}` : field.name, reason: REF_NOT_FOUND_REASON });
        }
      });
    }
    return errors;
  }

  /** Unique fields of the input already used by another record (per tenant unless uniqueGlobal). */
  private async duplicates(definition: EntityDefinition, input: Record<string, unknown>, tenant: unknown, exceptId: string | null, checks?: InsertChecks): Promise<InputError[]> {
    const errors: InputError[] = [];
    for (const field of definition.uniqueFields) {
      const value = input[field.name];
      if (value === undefined || value === null) continue;
      if (checks?.valueTaken(definition, field, value, tenant) ?? (await this.valueTaken(definition, field, value, tenant, exceptId))) {
        errors.push({ field: field.name, reason: field.validation.messages.unique ?? UNIQUE_REASON });
      }
    }
    return errors;
  }

  private async valueTaken(definition: EntityDefinition, field: FieldModel, value: unknown, tenant: unknown, exceptId: string | null) {
    const column = definition.columns.get(field.name)!;
    const perTenant = definition.tenantColumn !== null && !field.validation.uniqueGlobal;
    const row = await this.database.first(
      this.database.kysely
        .selectFrom(definition.table)
        .select('_id')
        .where((eb) => {
          const parts = [eb(field.name, '=', this.database.dialect.encode(column.type, value))];
          if (perTenant) parts.push(tenant === null ? eb(definition.tenantColumn!, 'is', null) : eb(definition.tenantColumn!, '=', tenant));
          if (exceptId) parts.push(eb('_id', '!=', exceptId));
          return eb.and(parts);
        })
        .limit(1)
        .compile(),
    );
    return row !== undefined;
  }
}
