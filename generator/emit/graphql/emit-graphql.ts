import { fieldType } from '../../../contract/field-types/field-types.ts';
import type { EntityModel, EntityModelMap, FieldModel } from '../../../contract/model/entity-model.ts';
import { constModule, GENERATED_HEADER, type EmittedFiles } from '../emitted-files.ts';

// The GraphQL face of the generic entities (docs/product-rules.md#product, #calls): per entity a type, an input, the queries
// paginate/find/findOne/findById/findByIds/search/export and the mutations create/update/delete.
// The server binds generic resolvers to the operation names listed here; the client sends the
// documents emitted beside them. Names are data, so neither side re-derives the convention.

export const ENTITY_ACTIONS = [
  'paginate', 'find', 'findOne', 'findById', 'findByIds', 'search', 'export', 'create', 'update', 'delete',
] as const;
export type GraphqlAction = (typeof ENTITY_ACTIONS)[number];

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** Operation name per action, e.g. bottrace paginate -> botTracePaginate. */
export function operationNames(model: EntityModel): Record<GraphqlAction, string> {
  const prefix = camel(model.typeName);
  return Object.fromEntries(ENTITY_ACTIONS.map((action) => [action, `${prefix}${pascal(action)}`])) as Record<GraphqlAction, string>;
}

const SHARED_SDL = `scalar JSON
scalar Upload

enum SortOrder { asc desc }
enum FileFormat { CSV JSON }
enum FilterOperator { eq ne gt gte lt lte in nin like }

"""One filter: field;operator;value in the REST form. Arrays go as lists, dates as ISO strings."""
input FilterInput {
  field: String!
  operator: FilterOperator!
  value: JSON
}

"""A file stored by the upload endpoint."""
type UploadedFile {
  filename: String
  filepath: String!
  size: Int
  mimetype: String
  url: String
}

input UploadedFileInput {
  filename: String
  filepath: String!
  size: Int
  mimetype: String
  url: String
}

type ExportFile {
  url: String!
  rowCount: Int!
  time: Float!
}
`;

interface Emitted {
  types: string[];
  enums: Map<string, string[]>;
}

/** Values usable as GraphQL enum names become an enum; anything else stays a String. */
function enumTypeName(field: FieldModel, owner: string, out: Emitted): string {
  const values = field.values ?? [];
  if (!values.every((value) => GRAPHQL_NAME.test(value))) return 'String';
  const name = field.enumName ?? `${owner}${pascal(field.name)}`;
  out.enums.set(name, values);
  return name;
}

function outputType(field: FieldModel, owner: string, models: EntityModelMap, out: Emitted): string {
  if (field.json) return 'JSON';
  const sub = `${owner}${pascal(field.name)}`;
  return fieldType(field.type).graphql.output(field, {
    enumType: (f) => enumTypeName(f, owner, out),
    refType: (f) => {
      const ref = f.ref!;
      const target = models[ref.entity];
      const lines = ['  _id: ID!'];
      for (const name of [ref.display, ...ref.populate]) {
        if (name === '_id') continue;
        const targetField = target.fields.find((t) => t.name === name);
        lines.push(`  ${name}: ${targetField ? outputType(targetField, `${sub}Ref`, models, out) : 'String'}`);
      }
      out.types.push(`type ${sub}Ref {\n${lines.join('\n')}\n}`);
      return `${sub}Ref`;
    },
    objectType: (f) => {
      const lines = (f.objectFields ?? []).filter((o) => !o.secret).map((o) => `  ${o.name}: ${outputType(o, sub, models, out)}`);
      out.types.push(`type ${sub} {\n${lines.join('\n')}\n}`);
      return sub;
    },
  });
}

function inputType(field: FieldModel, owner: string, out: Emitted): string {
  if (field.json) return 'JSON';
  const sub = `${owner}${pascal(field.name)}`;
  return fieldType(field.type).graphql.input(field, {
    enumType: (f) => enumTypeName(f, owner, out),
    refType: () => 'ID',
    objectType: (f) => {
      const lines = (f.objectFields ?? []).map((o) => `  ${o.name}: ${inputType(o, sub, out)}`);
      out.types.push(`input ${sub}Input {\n${lines.join('\n')}\n}`);
      return `${sub}Input`;
    },
  });
}

const LIST_ARGS = 'limit: Int, orderBy: String, order: SortOrder, search: String, filters: [FilterInput!]';

function entitySdl(model: EntityModel, models: EntityModelMap, out: Emitted): { query: string[]; mutation: string[] } {
  const t = model.typeName;
  const record = ['  _id: ID!'];
  for (const field of model.fields.filter((f) => !f.secret)) {
    const type = outputType(field, t, models, out);
    record.push(`  ${field.name}: ${type}${fieldType(field.type).list ? '!' : ''}`);
  }
  if (model.storage.tenantColumn && !model.fields.some((f) => f.name === 'tenant')) record.push('  tenant: String');
  record.push('  createdAt: String!', '  updatedAt: String!');
  out.types.push(`"""${t} (REST: ${model.api.basePath})"""\ntype ${t} {\n${record.join('\n')}\n}`);
  const writable = model.fields.filter((f) => !f.readonly);
  // An input type with no field is invalid GraphQL; entities written only by the server have none.
  const hasInput = writable.length > 0 && (model.flags.creatable || model.flags.editable);
  if (hasInput) {
    const input = writable.map((f) => `  ${f.name}: ${inputType(f, t, out)}`);
    out.types.push(`"""What a client sends to create or update ${t} records; the server validates it as REST does."""\ninput ${model.inputTypeName} {\n${input.join('\n')}\n}`);
  }
  out.types.push(`type ${t}Page {\n  items: [${t}!]!\n  total: Int!\n  page: Int!\n  limit: Int!\n}`);

  const names = operationNames(model);
  const query = [
    `  ${names.paginate}(page: Int, ${LIST_ARGS}): ${t}Page!`,
    `  ${names.find}(${LIST_ARGS}): [${t}!]!`,
    `  ${names.findOne}(search: String, filters: [FilterInput!]): ${t}`,
    `  ${names.findById}(id: ID!): ${t}!`,
    `  ${names.findByIds}(ids: [ID!]!): [${t}!]!`,
    `  ${names.search}(search: String!): [${t}!]!`,
  ];
  if (model.flags.exportable) {
    query.push(`  ${names.export}(format: FileFormat, headers: [String!], separator: String, ${LIST_ARGS}): ExportFile!`);
  }
  const mutation: string[] = [];
  if (model.flags.creatable && hasInput) mutation.push(`  ${names.create}(data: ${model.inputTypeName}!): ${t}!`);
  if (model.flags.editable && hasInput) mutation.push(`  ${names.update}(id: ID!, data: ${model.inputTypeName}!): ${t}!`);
  if (model.flags.deletable) mutation.push(`  ${names.delete}(id: ID!): Boolean!`);
  return { query, mutation };
}

/** Types whose GraphQL value is an object type, read with a selection of its fields. */
const WITH_SUBFIELDS = new Set<FieldModel['type']>(['fullFile', 'ref', 'array.ref', 'object', 'array.object']);

/** The selection set that reads every readable field of a record (refs with their shown fields). */
function selection(fields: FieldModel[], models: EntityModelMap, indent: string): string {
  const lines: string[] = [];
  for (const field of fields.filter((f) => !f.secret)) {
    if (field.json || !WITH_SUBFIELDS.has(field.type)) {
      lines.push(`${indent}${field.name}`);
    } else if (field.type === 'fullFile') {
      lines.push(`${indent}${field.name} { filename filepath size mimetype url }`);
    } else if (field.ref) {
      const shown = [field.ref.display, ...field.ref.populate].filter((name) => name !== '_id');
      const target = models[field.ref.entity];
      const inner = shown.map((name) => {
        const targetField = target.fields.find((f) => f.name === name);
        return targetField ? selection([targetField], models, '').trim() : name;
      });
      lines.push(`${indent}${field.name} { _id ${inner.join(' ')} }`);
    } else if (field.objectFields) {
      lines.push(`${indent}${field.name} {\n${selection(field.objectFields, models, `${indent}  `)}\n${indent}}`);
    }
  }
  return lines.join('\n');
}

function clientOperations(model: EntityModel, models: EntityModelMap): Record<string, string> {
  const names = operationNames(model);
  const t = model.typeName;
  const fields = ['    _id', selection(model.fields, models, '    '), '    createdAt', '    updatedAt'];
  if (model.storage.tenantColumn && !model.fields.some((f) => f.name === 'tenant')) fields.splice(2, 0, '    tenant');
  const record = `{\n${fields.join('\n')}\n  }`;
  const listVars = '$limit: Int, $orderBy: String, $order: SortOrder, $search: String, $filters: [FilterInput!]';
  const listArgs = 'limit: $limit, orderBy: $orderBy, order: $order, search: $search, filters: $filters';
  const ops: Record<string, string> = {
    paginate: `query ${pascal(names.paginate)}($page: Int, ${listVars}) {\n  result: ${names.paginate}(page: $page, ${listArgs}) {\n    items ${record.replace(/\n/g, '\n    ')}\n    total\n    page\n    limit\n  }\n}`,
    find: `query ${pascal(names.find)}(${listVars}) {\n  result: ${names.find}(${listArgs}) ${record}\n}`,
    findOne: `query ${pascal(names.findOne)}($search: String, $filters: [FilterInput!]) {\n  result: ${names.findOne}(search: $search, filters: $filters) ${record}\n}`,
    findById: `query ${pascal(names.findById)}($id: ID!) {\n  result: ${names.findById}(id: $id) ${record}\n}`,
    findByIds: `query ${pascal(names.findByIds)}($ids: [ID!]!) {\n  result: ${names.findByIds}(ids: $ids) ${record}\n}`,
    search: `query ${pascal(names.search)}($search: String!) {\n  result: ${names.search}(search: $search) ${record}\n}`,
  };
  if (model.flags.exportable) {
    ops.export = `query ${pascal(names.export)}($format: FileFormat, $headers: [String!], $separator: String, ${listVars}) {\n  result: ${names.export}(format: $format, headers: $headers, separator: $separator, ${listArgs}) { url rowCount time }\n}`;
  }
  if (model.flags.creatable) ops.create = `mutation ${pascal(names.create)}($data: ${model.inputTypeName}!) {\n  result: ${names.create}(data: $data) ${record}\n}`;
  if (model.flags.editable) ops.update = `mutation ${pascal(names.update)}($id: ID!, $data: ${model.inputTypeName}!) {\n  result: ${names.update}(id: $id, data: $data) ${record}\n}`;
  if (model.flags.deletable) ops.delete = `mutation ${pascal(names.delete)}($id: ID!) {\n  result: ${names.delete}(id: $id)\n}`;
  return ops;
}

/** The server's GraphQL schema of the generic entities and their operation names (server/generated/graphql.ts), as data. */
export function graphqlSchema(models: EntityModelMap): { typeDefs: string; operationNames: Record<string, Record<string, string>> } {
  const generic = Object.values(models).filter((m) => m.api.endpoints === 'generic');
  const out: Emitted = { types: [], enums: new Map() };
  const query: string[] = [];
  const mutation: string[] = [];
  for (const model of generic) {
    const ops = entitySdl(model, models, out);
    query.push(...ops.query);
    mutation.push(...ops.mutation);
  }
  const enums = [...out.enums].sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => `enum ${name} { ${values.join(' ')} }`);
  const typeDefs = [
    SHARED_SDL,
    ...enums,
    '',
    ...out.types.map((type) => `${type}\n`),
    `type Query {\n${query.join('\n')}\n}\n`,
    `type Mutation {\n${mutation.join('\n')}\n}\n`,
  ].join('\n');
  return { typeDefs, operationNames: Object.fromEntries(generic.map((m) => [m.name, operationNames(m)])) };
}

export function emitGraphql(models: EntityModelMap): EmittedFiles {
  const generic = Object.values(models).filter((m) => m.api.endpoints === 'generic');
  const { typeDefs, operationNames: names } = graphqlSchema(models);
  const documents = Object.fromEntries(generic.map((m) => [m.name, clientOperations(m, models)]));
  const files: EmittedFiles = new Map();
  files.set(
    'server/generated/graphql.ts',
    `${GENERATED_HEADER}
/** The GraphQL schema of the generic entities; hand-written parts (identity, files) extend it. */
export const entityTypeDefs = ${JSON.stringify(typeDefs)};

/** Operation name of every action, by entity: the server binds its generic resolvers to these. */
export const entityOperationNames: Record<string, Record<string, string>> = ${JSON.stringify(names, null, 2)};
`,
  );
  files.set(
    'src/generated/graphql-operations.ts',
    constModule(
      "import type { EntityName } from './types.ts';\n\n/** Every operation selects its answer under the alias `result`. */\nexport type EntityDocuments = Partial<Record<'paginate' | 'find' | 'findOne' | 'findById' | 'findByIds' | 'search' | 'export' | 'create' | 'update' | 'delete', string>>;\n",
      'graphqlDocuments',
      'Partial<Record<EntityName, EntityDocuments>>',
      documents,
    ),
  );
  return files;
}
