import type { EntityModelMap } from '../../../contract/model/entity-model.ts';
import { buildInputSchema, buildRecordSchema, type JsonSchema } from '../json-schema.ts';
import { constModule, GENERATED_HEADER, type EmittedFiles } from '../emitted-files.ts';

const OUT = 'server/generated';

/**
 * The server's view: the full model and the request and response schemas per entity. Routes,
 * tables and validation are all registered from these. The model is emitted once, for both sides,
 * in src/generated/entities.ts (everything but storage, what the browser may see); here only each
 * entity's storage (table, columns, indexes) is emitted, and joined to it.
 */
export function emitServer(models: EntityModelMap): EmittedFiles {
  const files: EmittedFiles = new Map();
  const storage = Object.fromEntries(Object.values(models).map((model) => [model.name, model.storage]));
  files.set(
    `${OUT}/entities.ts`,
    `${GENERATED_HEADER}import type { EntityModelMap, StorageModel } from '../../contract/model/entity-model.ts';
import { entities as shared } from '../../src/generated/entities.ts';

/** Each entity's storage: the server's part of the model, kept out of the console's bundle. */
const storage: Record<string, StorageModel> = ${JSON.stringify(storage, null, 2)};

/** The full model: the one emitted in src/generated/entities.ts plus its storage. */
export const entities: EntityModelMap = Object.fromEntries(
  Object.values(shared).map((model) => {
    const own = storage[model.name];
    if (!own) throw new Error('server/generated/entities.ts: no storage for entity "' + model.name + '"; run npm run generate');
    return [model.name, { ...model, storage: own }];
  }),
);
`,
  );
  const schemas = serverSchemas(models);
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

/** Each entity's request and response schemas (server/generated/schemas.ts), also built in memory by a running server's live apply. */
export function serverSchemas(models: EntityModelMap): Record<string, { create: JsonSchema; update: JsonSchema; record: JsonSchema }> {
  return Object.fromEntries(
    Object.values(models).map((model) => [
      model.name,
      {
        create: buildInputSchema(model, 'create'),
        update: buildInputSchema(model, 'update'),
        record: buildRecordSchema(model, models),
      },
    ]),
  );
}
