import { FILTER_OPERATORS, SYSTEM_FIELDS, type EntityModel, type EntityModelMap } from '../../contract/model/entity-model.ts';
import type { EntitySchemas, JsonSchema } from '../generated/schemas.ts';
import { EXPORT_LOCALES } from '../entities/csv-localization.ts';
import { defaultExportFormat } from '../entities/entity-exporter.ts';
import { ENTITY_ENDPOINTS, type EntityOperationName } from '../../contract/endpoints/entity-endpoints.ts';
import { PREVIEW_ANSWER_SCHEMA } from '../../contract/chat/preview-answer.ts';
import { MAX_BULK_DELETE } from '../../contract/endpoints/bulk-delete.ts';

/** One registered route and how it is protected (collected by the server as routes are added). */
export interface DocumentedRoute {
  method: string;
  url: string;
  /** 'public', 'authenticated' or the permission string. */
  access: string;
  /** The route's own Fastify schema, when it declares one (body, querystring, params). */
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; summary?: string; description?: string; tags?: string[] };
}

type Operation = Record<string, unknown>;
type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
};

const ERROR_RESPONSES: Record<string, string> = {
  400: 'Bad input: the body, a query parameter or a filter is invalid (inputErrors say which field)',
  401: 'No credentials, invalid or expired token, or an API key used from a refused address',
  403: 'Signed in, but the role lacks the permission (or the action is switched off)',
  404: 'No such record (or it belongs to another tenant)',
  405: 'The path exists but not with this method (the Allow header lists those it has)',
  408: 'The page at the URL did not answer in time',
  409: 'Conflict: a unique value is taken, the record is in use or read-only, or the resource is busy',
  410: 'Gone: the download link expired or its file is no longer kept',
  413: 'Payload too large (body, file, rows or quota)',
  406: 'A multipart part declared as JSON is not JSON',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  422: 'Well-formed but refused: a file that cannot be read as its format, or a rule of a lifecycle hook',
  429: 'Too many requests',
  431: 'The request headers, the address included, are larger than 16 KB',
  500: 'Unexpected server error',
  501: 'Not configured on this server',
  502: 'A service the server relies on (mail) failed',
  503: 'Busy or shutting down, the data directory is read-only, or the language model is unreachable; try again later',
  504: 'The language model did not answer in time',
  507: 'No storage space left; nothing was saved',
};

/**
 * Which errors an operation documents. Every operation may answer the input-hygiene, method,
 * size, rate and fault statuses; signed-in routes add 401/403; bodies add 415; writes add 409
 * (unique values, in-use deletes, read-only records, busy resources), 422 (a lifecycle hook's
 * refusal: server/entities/entity-hooks.ts) and 507 (disk full).
 * ROUTE_ERRORS adds what only some routes answer. Tests validate every API response against
 * this (tests/api/helpers/openapi-contract.ts), so a status missing here fails a test.
 */
const EVERY_OPERATION_ERRORS = ['400', '404', '405', '413', '429', '431', '500', '503'];
const SIGNED_IN_ERRORS = ['401', '403'];
const BODY_ERRORS = ['415'];
const WRITE_ERRORS = ['409', '422', '507'];

/** Statuses only some routes answer, keyed "METHOD url" as Fastify registers them. */
const ROUTE_ERRORS: Record<string, string[]> = {
  'POST /api/auth/login': ['401'],
  'POST /api/google/login': ['401', '501'],
  'POST /api/google/logout': ['501'],
  'POST /api/users/register': ['403'],
  'POST /api/users/password/recovery/request': ['403', '502'],
  'POST /api/users/password/recovery/complete': ['403'],
  'GET /files/exports/:name': ['403', '410'],
  'POST /api/rag/parse-file': ['422'],
  'POST /api/rag/parse-url': ['408'],
  // A GET that enqueues the training: 409 while one runs or when it is cancelled.
  'GET /api/rag/train/:id': ['409', '502', '504'],
  'POST /api/rag/improve': ['502', '504'],
  'GET /files/*': ['403', '416'],
  'POST /api/chat/start': ['403'],
  'POST /api/chat/resume': ['401', '403'],
  'GET /api/chat/bot/:id': ['403'],
  'GET /api/chat/conversation/:id': ['401', '403'],
  // The language model's failures: 502 bad answer, 504 timeout (503 unreachable is everyone's).
  'POST /api/chat/message/:conversationId': ['401', '403', '502', '504'],
  'POST /api/chat/message/:conversationId/stream': ['401', '403', '502', '504'],
  'POST /api/chat/reaction/:conversationId': ['401', '403'],
  'POST /api/chat/verify/:conversationId': ['401', '403', '502'],
  'POST /api/chat/verify/:conversationId/code': ['401', '403'],
  // The schema studio: a manifest on disk that is not valid JSON, or two files holding one entity.
  'GET /api/studio/manifests/:name': ['409'],
};

/** Success statuses other than 200 of the routes that are not generic entities. */
const ROUTE_SUCCESS: Record<string, Record<string, unknown>> = {
  'POST /api/users/register': { 201: { description: 'Account created' } },
  'POST /api/file': { 201: { description: 'Stored' } },
  'POST /api/file/:dir': { 201: { description: 'Stored' } },
  'POST /api/chat/start': { 201: { description: 'Conversation started' } },
  'GET /files/*': { 200: { description: 'The file' }, 206: { description: 'Part of the file (Range)' }, 304: { description: 'Not modified' } },
  'GET /api/docs/static/*': { 200: { description: 'Asset' }, 304: { description: 'Not modified' } },
  'POST /api/chat/preview/:botId': { 200: { description: "The answer a visitor would get, and how it was made", content: { 'application/json': { schema: PREVIEW_ANSWER_SCHEMA } } } },
};

/** Request bodies of the routes that are not generic entities and declare no schema: the uploads. */
const UPLOAD = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } } };
const ROUTE_BODIES: Record<string, unknown> = {
  'POST /api/file': UPLOAD,
  'POST /api/file/:dir': UPLOAD,
  'POST /api/users/avatar': UPLOAD,
};

/** Which error statuses an operation documents (see EVERY_OPERATION_ERRORS). */
export function documentedErrors(method: string, url: string, access: string, multipart = false): string[] {
  const codes = new Set(EVERY_OPERATION_ERRORS);
  if (access !== 'public') for (const code of SIGNED_IN_ERRORS) codes.add(code);
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') for (const code of BODY_ERRORS) codes.add(code);
  if (multipart) codes.add('406');
  if (method !== 'GET') for (const code of WRITE_ERRORS) codes.add(code);
  for (const code of ROUTE_ERRORS[`${method} ${url}`] ?? []) codes.add(code);
  return [...codes].sort();
}

/** OpenAPI 3.1 speaks JSON Schema 2020-12: drop the draft-07 identifiers the generator stamps. */
function component(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * A record as the server answers it: a field never set reads as null whatever its type (lists and
 * objects too, e.g. a bot created without questions), so every non-system property may be null.
 */
function nullableRecord(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return schema;
  const nullable = (property: JsonSchema): JsonSchema => {
    const inner = property.type === 'object' ? nullableRecord(property) : property.type === 'array' && property.items ? { ...property, items: nullableRecord(property.items as JsonSchema) } : property;
    const type = inner.type;
    if (type === 'array' || type === 'object') return { anyOf: [inner, { type: 'null' }] };
    return inner;
  };
  return { ...schema, properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, SYSTEM_FIELDS.includes(name as never) ? property : nullable(property)])) };
}

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function pathParameters(url: string): Operation[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

function errorResponses(codes: string[]): Record<string, unknown> {
  return Object.fromEntries(codes.map((code) => {
    const description = ERROR_RESPONSES[code];
    if (!description) throw new Error(`build-openapi.ts: status ${code} has no description in ERROR_RESPONSES; add one`);
    return [code, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }];
  }));
}

/**
 * GraphQL over HTTP: results and resolver errors answer 200 with `{ data, errors }` (each error's
 * `extensions` carries the REST error shape); a request GraphQL cannot run (syntax, validation,
 * limits) answers 400 with `{ data: null, errors }`; what fails before GraphQL reads the request
 * (size, media type, rate) answers the REST error shape.
 */
function graphqlResponses(codes: string[]): Record<string, unknown> {
  const either = { content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/GraphQLResponse' }, { $ref: '#/components/schemas/Error' }] } } } };
  return {
    200: { description: 'The result, with resolver errors in `errors`', content: { 'application/json': { schema: { $ref: '#/components/schemas/GraphQLResponse' } } } },
    ...Object.fromEntries(codes.map((code) => [code, { description: ERROR_RESPONSES[code], ...either }])),
  };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneOf = (names: readonly string[]) => `(?:${names.map(escapeRegex).join('|')})`;

/**
 * `field;operator;value` joined by `|` (server/entities/parse-filters.ts): the field one of the
 * model's filterFields, the operator one of FILTER_OPERATORS, the value anything but `|`.
 * The server also checks each value against its field's type; the pattern cannot say that.
 */
export function filtersPattern(model: EntityModel): string {
  if (model.filterFields.length === 0) return '^$';
  const one = `${oneOf(model.filterFields)};${oneOf(FILTER_OPERATORS)};[^|]*`;
  return `^(?:${one}(?:\\|${one})*)?$`;
}

/** The fields an export may name in `headers` (server/entities/entity-exporter.ts readHeaders). */
export function exportableHeaders(model: EntityModel): string[] {
  const names = new Set<string>(SYSTEM_FIELDS);
  for (const field of model.fields) if (!field.secret) names.add(field.name);
  const tenant = model.storage.tenantColumn;
  if (tenant && model.storage.columns.some((column) => column.name === tenant)) names.add(tenant);
  return [...names];
}

function listParameters(model: EntityModel, paged: boolean): Operation[] {
  const params: Operation[] = [];
  if (paged) params.push({ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } });
  params.push(
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10000, default: paged ? 5 : 100 } },
    { name: 'orderBy', in: 'query', schema: { type: 'string', enum: model.sortFields } },
    { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
    { name: 'search', in: 'query', description: `Case-insensitive match on ${model.searchFields.join(', ') || '(no searchable field)'}`, schema: { type: 'string' } },
    {
      name: 'filters',
      in: 'query',
      description: `field;operator;value joined by |, operators ${FILTER_OPERATORS.join(' ')} (in/nin: comma-joined values; each value must suit its field's type). Filterable: ${model.filterFields.join(', ')}`,
      schema: { type: 'string', pattern: filtersPattern(model) },
      example: `${model.filterFields[model.filterFields.length - 1] ?? '_id'};eq;value`,
    },
  );
  return params;
}

/** The detailed operations of one generic entity, keyed by "METHOD url" as Fastify registers them. */
function entityOperations(model: EntityModel): Record<string, Operation> {
  const t = model.typeName;
  const base = model.api.basePath;
  const record = { $ref: `#/components/schemas/${t}` };
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  const ops: Record<EntityOperationName, Operation> = {
    paginate: { summary: `Page of ${t} records`, parameters: listParameters(model, true), responses: { 200: { description: 'A page', ...json({ type: 'object', properties: { items: { type: 'array', items: record }, total: { type: 'integer' } }, required: ['items', 'total'] }) } } },
    find: { summary: `${t} records matching the query (no total)`, parameters: listParameters(model, false), responses: { 200: { description: 'Records', ...json({ type: 'array', items: record }) } } },
    findOne: { summary: `First ${t} matching the query`, parameters: listParameters(model, false).filter((p) => ['search', 'filters'].includes(String(p.name))), responses: { 200: { description: 'The record', ...json(record) } } },
    search: { summary: `${t} records whose searchable fields match`, parameters: [{ name: 'search', in: 'query', schema: { type: 'string' } }], responses: { 200: { description: 'Records', ...json({ type: 'array', items: record }) } } },
    findByIds: { summary: `${t} records by comma-joined ids`, responses: { 200: { description: 'Records', ...json({ type: 'array', items: record }) } } },
    findById: { summary: `One ${t}`, responses: { 200: { description: 'The record', ...json(record) } } },
    create: { summary: `Create a ${t}`, requestBody: { required: true, ...json({ $ref: `#/components/schemas/${t}Create` }) }, responses: { 201: { description: 'Created', ...json(record) } } },
    update: { summary: `Update a ${t} (fields sent are merged over the stored record)`, requestBody: { required: true, ...json({ $ref: `#/components/schemas/${t}Update` }) }, responses: { 200: { description: 'Updated', ...json(record) } } },
    delete: { summary: `Delete a ${t}`, responses: { 204: { description: 'Deleted' }, 409: { description: 'In use: records still point at it (error.recordInUse; `references` gives the count per entity); change or delete them first', ...json({ $ref: '#/components/schemas/Error' }) } } },
    bulkDelete: {
      summary: `Delete several ${t} records, each checked as a single delete`,
      description: `Either \`ids\` or \`matching\` (a list query with the count the user confirmed; no search nor filters is every record the caller reaches), at most ${MAX_BULK_DELETE} records (413 beyond, nothing deleted). Each record is deleted on its own (scope, hooks, in-use check, transaction); a refused one does not stop the others, and every record gets an outcome.`,
      requestBody: {
        required: true,
        ...json({
          oneOf: [
            { type: 'object', properties: { ids: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, minItems: 1, maxItems: MAX_BULK_DELETE } }, required: ['ids'], additionalProperties: false },
            {
              type: 'object',
              properties: {
                matching: {
                  type: 'object',
                  properties: {
                    search: { type: 'string' },
                    filters: { type: 'string', pattern: filtersPattern(model) },
                    expected: { type: 'integer', minimum: 0, description: 'The count the user confirmed; another count now is a 409 and nothing is deleted' },
                  },
                  required: ['expected'],
                  additionalProperties: false,
                },
              },
              required: ['matching'],
              additionalProperties: false,
            },
          ],
        }),
      },
      responses: { 200: { description: 'One outcome per record', ...json({ $ref: '#/components/schemas/BulkDeleteReport' }) } },
    },
    export: {
      summary: `Export ${t} records to a file`,
      parameters: [
        { name: 'format', in: 'query', description: 'Case-insensitive', schema: { type: 'string', enum: model.export.formats, default: defaultExportFormat(model) } },
        {
          name: 'headers',
          in: 'query',
          description: `Comma-joined fields (default: ${model.export.headers.join(', ')}); secret fields are never exported`,
          schema: { type: 'string', pattern: `^${oneOf(exportableHeaders(model))}(?:,${oneOf(exportableHeaders(model))})*$` },
        },
        { name: 'separator', in: 'query', description: 'CSV only: one character, not a quote or a line break', schema: { type: 'string', pattern: '^[^"\\r\\n]$', default: ';' } },
        { name: 'locale', in: 'query', description: 'CSV only: header labels and values in this language (empty: field names and stored values)', schema: { type: 'string', enum: EXPORT_LOCALES } },
        ...listParameters(model, false).map((p) => (p.name === 'limit' ? { ...p, description: '0 = all', schema: { type: 'integer', minimum: 0, default: 0 } } : p)),
      ],
      responses: { 200: { description: 'Where the file is', ...json({ $ref: '#/components/schemas/ExportFile' }) } },
    },
    import: {
      summary: `Import ${t} records from CSV or JSON (all or nothing)`,
      parameters: [
        { name: 'format', in: 'query', description: 'Case-insensitive; default: from the file name\'s extension', schema: { type: 'string', enum: model.import.formats } },
        { name: 'separator', in: 'query', description: 'CSV only: one character, not a quote or a line break (default: detected from the header line)', schema: { type: 'string', pattern: '^[^"\\r\\n]$' } },
        { name: 'dryRun', in: 'query', schema: { type: 'boolean', default: false } },
      ],
      requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } } },
      responses: { 200: { description: 'Import report', ...json({ $ref: '#/components/schemas/ImportReport' }) } },
    },
  };
  // Keyed as the server registers them, from the one endpoint table (contract/endpoints).
  return Object.fromEntries(
    (Object.keys(ops) as EntityOperationName[]).map((name) => [`${ENTITY_ENDPOINTS[name].method} ${base}${ENTITY_ENDPOINTS[name].path}`, ops[name]]),
  );
}

/**
 * The OpenAPI 3.1 document: every registered route (from the server's own route table, so nothing
 * registered goes undocumented), the generic entities in detail from the generated models and
 * schemas, and each route's permission as `x-permission` and in its description.
 */
export function buildOpenApi(options: {
  entities: EntityModelMap;
  schemas: Record<string, EntitySchemas>;
  routes: DocumentedRoute[];
  version: string;
}): OpenApiDocument {
  const { entities, schemas, routes } = options;
  const detailed = new Map<string, { operation: Operation; tag: string }>();
  const componentsSchemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        i18nMessage: { type: 'string', description: 'Locale key of the message, when there is one' },
        i18nParams: { type: 'object', description: 'Values of the message\'s placeholders (a 409\'s {count})' },
        requestId: { type: 'string', description: "The response's X-Request-Id (quote it when reporting a failure; the server's log line has it)" },
        inputErrors: {
          type: 'array',
          items: { type: 'object', properties: { field: { type: 'string', description: 'parent.index.field for nested lists' }, reason: { type: 'string', description: 'Locale key, e.g. validation.required' } }, required: ['field', 'reason'] },
        },
      },
      required: ['message'],
    },
    GraphQLResponse: {
      type: 'object',
      properties: {
        data: { type: ['object', 'null'] },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              message: { type: 'string' },
              locations: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } } },
              path: { type: 'array', items: { type: ['string', 'integer'] } },
              extensions: {
                type: 'object',
                description: 'The REST error shape, with its HTTP status',
                properties: { status: { type: 'integer' }, message: { type: 'string' }, i18nMessage: { type: 'string' }, inputErrors: { $ref: '#/components/schemas/Error/properties/inputErrors' } },
              },
            },
            required: ['message'],
          },
        },
      },
    },
    BulkDeleteReport: {
      type: 'object',
      properties: {
        deleted: { type: 'integer' },
        failed: { type: 'integer' },
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              label: { type: 'string', description: "The record's display field (its id when unknown)" },
              deleted: { type: 'boolean' },
              error: {
                type: 'object',
                description: 'Why it was not deleted: the answer a single delete would have given (403, 404, 409 in use, ...)',
                properties: { status: { type: 'integer' }, message: { type: 'string' }, i18nMessage: { type: 'string' }, i18nParams: { type: 'object' } },
                required: ['status', 'message'],
              },
            },
            required: ['id', 'label', 'deleted'],
          },
        },
      },
      required: ['deleted', 'failed', 'results'],
    },
    ExportFile: { type: 'object', properties: { url: { type: 'string' }, rowCount: { type: 'integer' }, time: { type: 'number', description: 'milliseconds' } }, required: ['url', 'rowCount', 'time'] },
    ImportReport: {
      type: 'object',
      properties: {
        dryRun: { type: 'boolean' }, total: { type: 'integer' }, valid: { type: 'integer' }, invalid: { type: 'integer' }, created: { type: 'integer' },
        errors: { type: 'array', items: { type: 'object', properties: { row: { type: 'integer' }, field: { type: 'string' }, reason: { type: 'string' } } } },
      },
    },
  };
  const tags: OpenApiDocument['tags'] = [];
  for (const model of Object.values(entities)) {
    const entitySchemas = schemas[model.name];
    if (!entitySchemas) continue;
    componentsSchemas[model.typeName] = nullableRecord(component(entitySchemas.record));
    componentsSchemas[`${model.typeName}Create`] = component(entitySchemas.create);
    componentsSchemas[`${model.typeName}Update`] = component(entitySchemas.update);
    if (model.api.endpoints !== 'generic') continue;
    tags.push({ name: model.typeName, description: `${model.api.basePath} (manifest ${model.name})` });
    for (const [key, operation] of Object.entries(entityOperations(model))) detailed.set(key, { operation, tag: model.typeName });
  }

  const paths: OpenApiDocument['paths'] = {};
  const seenTags = new Set(tags.map((t) => t.name));
  for (const route of routes) {
    const method = route.method.toUpperCase();
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    if (!route.url.startsWith('/api') && route.url !== '/graphql' && !route.url.startsWith('/files')) continue;
    const known = detailed.get(`${method} ${route.url}`);
    const tag = known?.tag ?? route.schema?.tags?.[0] ?? route.url.split('/')[2] ?? 'api';
    if (!seenTags.has(tag)) {
      seenTags.add(tag);
      tags.push({ name: tag });
    }
    const isPublic = route.access === 'public';
    const accessText = isPublic ? 'Public.' : route.access === 'authenticated' ? 'Any signed-in caller.' : `Requires permission \`${route.access}\` (or the entity's :manage).`;
    const key = `${method} ${route.url}`;
    const requestBody = (known?.operation.requestBody as { content: Record<string, unknown> } | undefined)
      ?? (route.schema?.body ? { content: { 'application/json': { schema: route.schema.body } } } : undefined)
      ?? (ROUTE_BODIES[key] as { content: Record<string, unknown> } | undefined);
    const errors = documentedErrors(method, route.url, route.access, Boolean(requestBody?.content['multipart/form-data']));
    const operation: Operation = {
      tags: [tag],
      summary: known?.operation.summary ?? route.schema?.summary ?? key,
      description: [accessText, route.schema?.description].filter(Boolean).join('\n\n'),
      operationId: `${method.toLowerCase()}${toOpenApiPath(route.url).replace(/[{}]/g, '').split(/[/-]/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('')}`,
      'x-permission': route.access,
      parameters: [...pathParameters(route.url), ...((known?.operation.parameters as Operation[] | undefined) ?? querystringParameters(route.schema?.querystring))],
      ...(requestBody ? { requestBody } : {}),
      responses: route.url === '/graphql' ? graphqlResponses(errors) : {
        ...((known?.operation.responses as Record<string, unknown> | undefined) ?? ROUTE_SUCCESS[key] ?? { 200: { description: 'Success' } }),
        ...errorResponses(errors),
      },
      ...(isPublic ? { security: [] } : {}),
    };
    (paths[toOpenApiPath(route.url)] ??= {})[method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Forja API',
      version: options.version,
      description: 'Manifest-driven API of the Forja console. Errors always have the shape `{ message, i18nMessage?, inputErrors?, requestId }`. Authenticate with `Authorization: Bearer <token>` from POST /api/auth/login, or an API key in `x-api-key`.',
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas: componentsSchemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
    ...{ security: [{ bearer: [] }, { apiKey: [] }] },
  } as OpenApiDocument;
}

function querystringParameters(schema: unknown): Operation[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!properties) return [];
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', schema: property }));
}
