import type { Ajv } from 'ajv';
import type { ColumnModel, EntityModel, EntityModelMap, FieldModel } from '../../contract/model/entity-model.ts';
import type { EntitySchemas } from '../generated/schemas.ts';
import { compileBodyValidator, type BodyValidator } from './entity-validator.ts';

/**
 * What the generic service needs to know about one entity, derived once at start-up from its
 * model and schemas so no request re-derives it (validators compiled, lookups as maps).
 */
export interface EntityDefinition {
  model: EntityModel;
  table: string;
  fields: Map<string, FieldModel>;
  columns: Map<string, ColumnModel>;
  /** Every column a response may carry: secret fields are never selected. */
  selectColumns: string[];
  /** ref and array.ref fields, populated on the way out. */
  refFields: FieldModel[];
  /** Column holding the tenant id, when the entity is tenant-scoped. */
  tenantColumn: string | null;
  /** Owner column (scope.owner), set from the caller on create. */
  ownerColumn: string | null;
  /** scope.writes "platform": a table every tenant shares; only platform users (no tenant) write it. */
  platformWrites: boolean;
  uniqueFields: FieldModel[];
  validateCreate: BodyValidator;
  validateUpdate: BodyValidator;
}

export type EntityDefinitions = Record<string, EntityDefinition>;

export function defineEntities(entities: EntityModelMap, schemas: Record<string, EntitySchemas>, ajv: Ajv): EntityDefinitions {
  const definitions: EntityDefinitions = {};
  for (const model of Object.values(entities)) {
    const entitySchemas = schemas[model.name];
    if (!entitySchemas) throw new Error(`No generated schemas for entity "${model.name}"; run npm run generate`);
    const fields = new Map(model.fields.map((f) => [f.name, f]));
    const columns = new Map(model.storage.columns.map((c) => [c.name, c]));
    for (const field of model.fields) {
      if (!columns.has(field.name)) throw new Error(`Entity "${model.name}": field "${field.name}" has no storage column`);
      if (field.ref && !entities[field.ref.entity]) {
        throw new Error(`Entity "${model.name}": field "${field.name}" references unknown entity "${field.ref.entity}"`);
      }
    }
    const secret = new Set(model.fields.filter((f) => f.secret).map((f) => f.name));
    definitions[model.name] = {
      model,
      table: model.storage.table,
      fields,
      columns,
      selectColumns: model.storage.columns.map((c) => c.name).filter((name) => !secret.has(name)),
      refFields: model.fields.filter((f) => f.ref && (f.type === 'ref' || f.type === 'array.ref')),
      tenantColumn: model.storage.tenantColumn,
      ownerColumn: model.scope.owner,
      platformWrites: model.scope.writes === 'platform',
      uniqueFields: model.fields.filter((f) => f.validation.unique),
      validateCreate: compileBodyValidator(ajv, entitySchemas.create),
      validateUpdate: compileBodyValidator(ajv, entitySchemas.update),
    };
  }
  return definitions;
}

/** Registry lookup that fails loudly: a missing entity is a programming error, not a 404. */
export function definitionOf(definitions: EntityDefinitions, name: string): EntityDefinition {
  const definition = definitions[name];
  if (!definition) throw new Error(`Unknown entity "${name}" (known: ${Object.keys(definitions).join(', ')})`);
  return definition;
}
