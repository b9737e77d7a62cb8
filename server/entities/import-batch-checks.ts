import type { FieldModel } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { RequestContext } from '../http/request-context.ts';
import { scopeConditions, type RecordScope } from './entity-query.ts';
import { definitionOf, type EntityDefinition, type EntityDefinitions } from './entity-definition.ts';
import { isBlank } from './entity-validator.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';

/** Values per `IN (...)`: far below SQLite's 32,766 bound parameters. */
const VALUES_PER_QUERY = 500;

/**
 * Answers the entity service's per-record reference and uniqueness checks from lookups done
 * ahead for many records at once (EntityService.prepareInsert). `undefined` means "not looked
 * up": the service then runs its own query for that value, so an answer is never guessed.
 */
export interface InsertChecks {
  /** Whether `id` is a record of `target` in the caller's scope, if known. */
  refExists(target: EntityDefinition, id: string): boolean | undefined;
  /** Whether another record of `definition` holds `value` in `field` (for `tenant` unless global), if known. */
  valueTaken(definition: EntityDefinition, field: FieldModel, value: unknown, tenant: unknown): boolean | undefined;
}

/**
 * The lookups of an import, done per slice of rows: one `_id IN (...)` query per ref target and
 * one `field IN (...)` query per unique field, instead of one query per row and field (which
 * were most of an import's time, about 0.2 ms per row and field on SQLite). Answers are kept
 * for the whole import, so a bot named on every row is looked up once. The bodies looked at are
 * the rows as read; a value that hooks or defaults change later is simply not known here and is
 * checked by the service's own query, with the same outcome and message as a single create.
 * Unique values are matched here only in text columns (exact, case-sensitive equality on both
 * engines, no collations in use); other types go to the service's query.
 */
export class ImportBatchChecks implements InsertChecks {
  /** Per target entity: ids looked up, and those that exist. */
  private readonly refs = new Map<string, { checked: Set<string>; existing: Set<string> }>();
  /** Per entity and unique field: values looked up, and the tenants (null: none) holding each. */
  private readonly uniques = new Map<string, { checked: Set<string>; holders: Map<string, Set<string | null>> }>();

  constructor(
    private readonly database: Database,
    private readonly definitions: EntityDefinitions,
    private readonly context: RequestContext,
  ) {}

  /** Looks up, in a few queries, every ref id and unique value of `bodies` not looked up yet. */
  async load(definition: EntityDefinition, bodies: readonly Record<string, unknown>[]): Promise<void> {
    const wantedIds = new Map<string, Set<string>>();
    for (const field of definition.refFields) {
      const target = definitionOf(this.definitions, field.ref!.entity);
      const known = this.refsOf(target);
      let wanted = wantedIds.get(target.model.name);
      if (!wanted) wantedIds.set(target.model.name, (wanted = new Set()));
      for (const body of bodies) {
        const value = body[field.name];
        const ids = fieldType(field.type).list ? (Array.isArray(value) ? value : []) : value === undefined || isBlank(value) ? [] : [value];
        for (const id of ids) {
          const key = String(id);
          if (!known.checked.has(key)) wanted.add(key);
        }
      }
    }
    for (const [entity, ids] of wantedIds) if (ids.size > 0) await this.loadRefs(definitionOf(this.definitions, entity), [...ids]);

    for (const field of definition.uniqueFields) {
      if (definition.columns.get(field.name)?.type !== 'text') continue;
      const known = this.uniquesOf(definition, field);
      const wanted = new Set<string>();
      for (const body of bodies) {
        const value = body[field.name];
        if (typeof value === 'string' && !known.checked.has(value)) wanted.add(value);
      }
      if (wanted.size > 0) await this.loadUniques(definition, field, [...wanted]);
    }
  }

  refExists(target: EntityDefinition, id: string): boolean | undefined {
    const known = this.refs.get(target.model.name);
    if (!known?.checked.has(id)) return undefined;
    return known.existing.has(id);
  }

  valueTaken(definition: EntityDefinition, field: FieldModel, value: unknown, tenant: unknown): boolean | undefined {
    if (typeof value !== 'string' || definition.columns.get(field.name)?.type !== 'text') return undefined;
    const known = this.uniques.get(`${definition.model.name}\u0000${field.name}`);
    if (!known?.checked.has(value)) return undefined;
    const holders = known.holders.get(value);
    if (!holders) return false;
    const perTenant = definition.tenantColumn !== null && !field.validation.uniqueGlobal;
    if (!perTenant) return true;
    if (tenant !== null && typeof tenant !== 'string') return undefined;
    return holders.has(tenant);
  }

  private refsOf(target: EntityDefinition) {
    let known = this.refs.get(target.model.name);
    if (!known) this.refs.set(target.model.name, (known = { checked: new Set(), existing: new Set() }));
    return known;
  }

  private uniquesOf(definition: EntityDefinition, field: FieldModel) {
    const key = `${definition.model.name}\u0000${field.name}`;
    let known = this.uniques.get(key);
    if (!known) this.uniques.set(key, (known = { checked: new Set(), holders: new Map() }));
    return known;
  }

  /** As EntityService.missingRefs scopes its lookup: the caller's tenant when the target has one. */
  private async loadRefs(target: EntityDefinition, ids: string[]): Promise<void> {
    const known = this.refsOf(target);
    const scope: RecordScope = { tenantId: target.tenantColumn ? this.context.tenantId : null, ownerId: null };
    for (let start = 0; start < ids.length; start += VALUES_PER_QUERY) {
      const slice = ids.slice(start, start + VALUES_PER_QUERY);
      const rows = await this.database.all(
        this.database.kysely
          .selectFrom(target.table)
          .select('_id')
          .where((eb) => eb.and([eb('_id', 'in', slice), ...scopeConditions(target, scope, eb)]))
          .compile(),
      );
      for (const id of slice) known.checked.add(id);
      for (const row of rows) known.existing.add(String(row._id));
    }
  }

  /** Every stored record holding one of `values`, whatever its tenant (the tenant is compared per row). */
  private async loadUniques(definition: EntityDefinition, field: FieldModel, values: string[]): Promise<void> {
    const known = this.uniquesOf(definition, field);
    const tenantColumn = definition.tenantColumn;
    for (let start = 0; start < values.length; start += VALUES_PER_QUERY) {
      const slice = values.slice(start, start + VALUES_PER_QUERY);
      const rows = await this.database.all(
        this.database.kysely
          .selectFrom(definition.table)
          .select(tenantColumn ? [field.name, tenantColumn] : [field.name])
          .where(field.name, 'in', slice)
          .compile(),
      );
      for (const value of slice) known.checked.add(value);
      for (const row of rows) {
        const value = row[field.name];
        if (typeof value !== 'string') continue;
        const tenant = tenantColumn ? row[tenantColumn] : null;
        let holders = known.holders.get(value);
        if (!holders) known.holders.set(value, (holders = new Set()));
        holders.add(tenant === null || tenant === undefined ? null : String(tenant));
      }
    }
  }
}
