import type { EntityModelMap } from '../../model/entity-model.ts';
import { buildInputSchema, buildRecordSchema } from '../json-schema.ts';
import { constModule, type EmittedFiles } from '../emitted-files.ts';

const OUT = 'server/generated';

/**
 * The server's view: the full model (with storage: table, columns, indexes) and the request and
 * response schemas per entity. Routes, tables and validation are all registered from these.
 */
export function emitServer(models: EntityModelMap): EmittedFiles {
  const files: EmittedFiles = new Map();
  files.set(
    `${OUT}/entities.ts`,
    constModule("import type { EntityModelMap } from '../../generator/model/entity-model.ts';\n", 'entities', 'EntityModelMap', models),
  );
  const schemas = Object.fromEntries(
    Object.values(models).map((model) => [
      model.name,
      {
        create: buildInputSchema(model, 'create'),
        update: buildInputSchema(model, 'update'),
        record: buildRecordSchema(model, models),
      },
    ]),
  );
  files.set(
    `${OUT}/schemas.ts`,
    constModule(
      "export type JsonSchema = Record<string, unknown>;\n\nexport interface EntitySchemas {\n  create: JsonSchema;\n  update: JsonSchema;\n  record: JsonSchema;\n}\n",
      'schemas',
      'Record<string, EntitySchemas>',
      schemas,
    ),
  );
  return files;
}
