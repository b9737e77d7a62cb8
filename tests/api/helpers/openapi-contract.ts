import { createHash } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under ESM its callable sits on .default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** The parts of the OpenAPI document the contract reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, unknown>;
}

export interface OpenApiOperation {
  operationId?: string;
  'x-permission'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

/** One operation matched by a request: its method, its documented path and the operation. */
export interface MatchedOperation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** A response as the contract checks it. */
export interface CheckedResponse {
  method: string;
  /** The request's path, with or without a query string. */
  url: string;
  status: number;
  contentType: string;
  /** The parsed JSON body, when the answer is JSON. */
  body: unknown;
}

type Segment = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'rest' };
type Route = { method: string; path: string; segments: Segment[]; operation: OpenApiOperation };
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * Checks answers against the OpenAPI document the server serves at /api/docs/json: the status must
 * be one the operation documents, and a JSON body must match that status's schema (Ajv, compiled
 * once per operation and status). A request that matches no documented operation (unknown path,
 * HEAD, OPTIONS) is not checked. Used by every API test's client (test-server.ts) and by the
 * contract fuzz test (tests/fuzz/openapi-contract.test.ts).
 */
export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[] = [];
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(readonly document: OpenApiDocument) {
    // The document is one schema resource, so `#/components/schemas/X` inside any response schema resolves.
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(document as object, 'openapi');
    for (const [path, operations] of Object.entries(document.paths)) {
      const segments = path.split('/').slice(1).map((part): Segment =>
        part === '*' ? { kind: 'rest' } : /^\{[^}]+\}$/.test(part) ? { kind: 'param' } : { kind: 'static', text: part });
      for (const [method, operation] of Object.entries(operations)) {
        if (METHODS.has(method)) this.routes.push({ method: method.toUpperCase(), path, segments, operation });
      }
    }
  }

  /** The documented operation a request reaches, as the router would pick it (static segments first). */
  match(method: string, url: string): MatchedOperation | null {
    const parts = url.split('?')[0]!.split('/').slice(1);
    let best: { route: Route; rank: number[] } | null = null;
    for (const route of this.routes) {
      if (route.method !== method.toUpperCase()) continue;
      const rank = matchRank(route.segments, parts);
      if (rank && (!best || compareRanks(rank, best.rank) > 0)) best = { route, rank };
    }
    return best ? { method: best.route.method, path: best.route.path, operation: best.route.operation } : null;
  }

  /** null when the answer keeps the contract, else what broke it, naming the operation, the status and the schema path. */
  check(response: CheckedResponse): string | null {
    const matched = this.match(response.method, response.url);
    if (!matched) return null;
    const { operation } = matched;
    const name = `${matched.method} ${matched.path}${operation.operationId ? ` (${operation.operationId})` : ''}`;
    const status = String(response.status);
    const documented = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
    if (!documented) {
      const summary = typeof response.body === 'object' ? JSON.stringify(response.body).slice(0, 300) : String(response.body ?? '').slice(0, 300);
      return `${name} answered ${status}, which the OpenAPI document does not list for it (documented: ${Object.keys(operation.responses).join(', ')}); `
        + `add it to server/openapi/build-openapi.ts if the server is right. Body: ${summary}`;
    }
    if (!response.contentType.includes('json')) return null;
    const validate = this.validator(matched, status);
    if (!validate || validate(response.body)) return null;
    const error = validate.errors![0]!;
    return `${name} answered ${status} with a body that does not match its schema: ${error.instancePath || '(root)'} ${error.message} `
      + `(schema ${error.schemaPath}${Object.keys(error.params ?? {}).length ? `, ${JSON.stringify(error.params)}` : ''}). Body: ${JSON.stringify(response.body).slice(0, 300)}`;
  }

  private validator(matched: MatchedOperation, status: string): ValidateFunction | null {
    const key = `${matched.method} ${matched.path} ${status}`;
    if (this.validators.has(key)) return this.validators.get(key)!;
    const responses = matched.operation.responses;
    const responseKey = responses[status] ? status : responses[`${status[0]}XX`] ? `${status[0]}XX` : 'default';
    const content = responses[responseKey]?.content ?? {};
    const mediaType = Object.keys(content).find((type) => type.includes('json'));
    let validate: ValidateFunction | null = null;
    if (mediaType && content[mediaType]!.schema) {
      const pointer = ['paths', matched.path, matched.method.toLowerCase(), 'responses', responseKey, 'content', mediaType, 'schema']
        .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
        .map(encodeURIComponent)
        .join('/');
      validate = this.ajv.compile({ $ref: `openapi#/${pointer}` });
    }
    this.validators.set(key, validate);
    return validate;
  }
}

/** Per segment: 3 static, 2 parameter, 1 the rest; null when the path does not match. */
function matchRank(segments: Segment[], parts: string[]): number[] | null {
  const rank: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'rest') {
      rank.push(1);
      return rank;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.kind === 'static') {
      if (part !== segment.text) return null;
      rank.push(3);
    } else {
      if (part === '') return null;
      rank.push(2);
    }
  }
  return parts.length === segments.length ? rank : null;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** One contract per document text, so the many servers of a test file share compiled validators. */
const contracts = new Map<string, OpenApiContract>();

export function contractFor(documentText: string): OpenApiContract {
  const key = createHash('sha256').update(documentText).digest('hex');
  let contract = contracts.get(key);
  if (!contract) {
    contract = new OpenApiContract(JSON.parse(documentText) as OpenApiDocument);
    contracts.set(key, contract);
  }
  return contract;
}
