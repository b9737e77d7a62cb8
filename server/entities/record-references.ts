import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { FieldModel } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/http-error.ts';
import type { EntityDefinition, EntityDefinitions } from './entity-definition.ts';

/** The ref fields of one entity that point at another, split by what a delete of the target does. */
interface Referrer {
  definition: EntityDefinition;
  restrict: FieldModel[];
  clear: FieldModel[];
}

/**
 * Who points at a record, for deletes (manifest `ref.onDelete`): a record that a "restrict" ref
 * (the default, required or not) still points at is not deleted (409 with the count of records
 * per entity), so no reference, and above all no required one, is ever left pointing at nothing;
 * "clear" refs are set to null in the delete's transaction. Engine-level: every delete (REST,
 * GraphQL, features, system()) goes through EntityService.delete, which calls this.
 */
export class RecordReferences {
  /** Target entity -> the entities (and their fields) that reference it; built once. */
  private readonly referrers = new Map<string, Referrer[]>();

  constructor(
    private readonly database: Database,
    definitions: EntityDefinitions,
  ) {
    for (const definition of Object.values(definitions)) {
      const byTarget = new Map<string, Referrer>();
      for (const field of definition.refFields) {
        const target = field.ref!.entity;
        let referrer = byTarget.get(target);
        if (!referrer) byTarget.set(target, (referrer = { definition, restrict: [], clear: [] }));
        // "clear" is for optional single refs only (the generator refuses it elsewhere); treat
        // anything else as restrict, so a hand-made model can never empty a required ref.
        const clears = field.ref!.onDelete === 'clear' && field.type === 'ref' && !field.validation.required;
        (clears ? referrer.clear : referrer.restrict).push(field);
      }
      for (const [target, referrer] of byTarget) {
        const list = this.referrers.get(target) ?? [];
        list.push(referrer);
        this.referrers.set(target, list);
      }
    }
  }

  /**
   * Refuses (409) the delete of `id` while any "restrict" ref points at it, counting every
   * record of every entity, whatever the caller may see (the count is all it learns). A record
   * pointing at itself (a role its own child) does not keep itself alive.
   */
  async refuseInUse(definition: EntityDefinition, id: string, name: string): Promise<void> {
    const references: Record<string, number> = {};
    let total = 0;
    for (const { definition: from, restrict } of this.referrers.get(definition.model.name) ?? []) {
      if (restrict.length === 0) continue;
      const row = await this.database.first(
        this.database.kysely
          .selectFrom(from.table)
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where((eb) => {
            const match = eb.or(restrict.map((field) => this.points(eb, field, id)));
            return from === definition ? eb.and([match, eb('_id', '!=', id)]) : match;
          })
          .compile(),
      );
      const count = Number(row?.total ?? 0);
      if (count === 0) continue;
      references[from.model.name] = count;
      total += count;
    }
    if (total === 0) return;
    const list = Object.entries(references).map(([entity, count]) => `${entity}: ${count}`).join(', ');
    throw new HttpError(409, `${definition.model.name} "${name}" is used by ${total} record${total === 1 ? '' : 's'} (${list}); change or delete them first`, {
      i18nMessage: 'error.recordInUse',
      details: { references, i18nParams: { count: total } },
    });
  }

  /** Sets the "clear" refs pointing at `id` to null (run inside the delete's transaction). */
  async clear(definition: EntityDefinition, id: string): Promise<void> {
    for (const { definition: from, clear } of this.referrers.get(definition.model.name) ?? []) {
      for (const field of clear) {
        await this.database.run(this.database.kysely.updateTable(from.table).set({ [field.name]: null }).where(field.name, '=', id).compile());
      }
    }
  }

  private points(eb: ExpressionBuilder<any, any>, field: FieldModel, id: string): Expression<SqlBool> {
    return field.type === 'array.ref' ? this.database.dialect.jsonArrayContainsAny(field.name, [id]) : eb(field.name, '=', id);
  }
}
