import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.ts';

/** Nesting of `{`, `(` and `[` in a GraphQL document; the depth limit (8) refuses far less anyway. */
export const GRAPHQL_MAX_NESTING = 64;
/** Fragment definitions in one document: graphql-js validates fragment spreads recursively. */
export const GRAPHQL_MAX_FRAGMENTS = 100;
/** Characters of one document. */
export const GRAPHQL_MAX_DOCUMENT_CHARS = 100_000;

/**
 * Bounds a GraphQL document before graphql-js reads it, in one linear pass over its text:
 * the parser and several validation rules recurse, so 2,000 chained fragments or 10,000 nested
 * list values overflowed the stack ("Maximum call stack size exceeded", a 500). Strings, block
 * strings and comments are skipped; null when the document is within bounds (or absent: the
 * library says what is missing).
 */
export function documentBoundsError(request: FastifyRequest): HttpError | null {
  const body = request.body as unknown;
  const documents: unknown[] = Array.isArray(body) ? body.map((item) => (item as { query?: unknown })?.query) : [(body as { query?: unknown } | undefined)?.query ?? (request.query as { query?: unknown } | undefined)?.query];
  for (const document of documents) {
    if (typeof document !== 'string') continue;
    const problem = documentProblem(document);
    if (problem) return new HttpError(400, problem, { i18nMessage: 'error.graphql.tooCostly' });
  }
  return null;
}

export function documentProblem(text: string): string | null {
  if (text.length > GRAPHQL_MAX_DOCUMENT_CHARS) return `The GraphQL document has ${text.length} characters; at most ${GRAPHQL_MAX_DOCUMENT_CHARS} are allowed`;
  let depth = 0;
  let fragments = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x23 /* # */) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (char === 0x22 /* " */) {
      if (text.startsWith('"""', i)) {
        i += 3;
        while (i < text.length && !text.startsWith('"""', i)) i += text[i] === '\\' && text.startsWith('"""', i + 1) ? 4 : 1;
        i += 2;
      } else {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      }
    } else if (char === 0x7b || char === 0x28 || char === 0x5b) {
      depth++;
      if (depth > GRAPHQL_MAX_NESTING) return `The GraphQL document nests more than ${GRAPHQL_MAX_NESTING} levels of braces, parentheses or brackets`;
    } else if (char === 0x7d || char === 0x29 || char === 0x5d) {
      depth = Math.max(0, depth - 1);
    } else if (depth === 0 && char === 0x66 /* f */ && text.startsWith('fragment', i) && !isNameChar(text.charCodeAt(i - 1)) && !isNameChar(text.charCodeAt(i + 8))) {
      fragments++;
      if (fragments > GRAPHQL_MAX_FRAGMENTS) return `The GraphQL document defines more than ${GRAPHQL_MAX_FRAGMENTS} fragments`;
      i += 7;
    }
  }
  return null;
}

function isNameChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}
