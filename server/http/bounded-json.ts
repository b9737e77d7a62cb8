import type { FastifyInstance } from 'fastify';
import { HttpError } from './http-error.ts';

/** How deep objects and arrays may nest in a JSON body. */
export const JSON_MAX_DEPTH = 64;
/**
 * Members of one JSON object. V8 keeps an object of a few hundred thousand keys in a slow
 * dictionary: JSON.parse of one 3.5 MB object of 300,000 keys held the event loop 1.7 s here.
 * No form or API object has more than a few dozen fields; maps (settings) a few hundred.
 */
export const JSON_MAX_OBJECT_MEMBERS = 1_000;
/** Values (members and array items) of a whole JSON body: a long array of records is fine, a flood is not. */
export const JSON_MAX_VALUES = 200_000;

export interface JsonBounds {
  maxDepth: number;
  maxObjectMembers: number;
  maxValues: number;
  /** Longest string (in UTF-16 units); unbounded when absent (the body limit bounds it). */
  maxStringChars?: number;
}

export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxDepth: JSON_MAX_DEPTH, maxObjectMembers: JSON_MAX_OBJECT_MEMBERS, maxValues: JSON_MAX_VALUES };

/**
 * What is wrong with a JSON text's shape, found in one linear pass before JSON.parse ever sees it
 * (strings are skipped with indexOf, so long strings cost little); null when it is within
 * `bounds`. Malformed text is left to JSON.parse to describe.
 */
export function jsonBoundsProblem(text: string, bounds: JsonBounds = DEFAULT_JSON_BOUNDS): { status: 400 | 413; message: string } | null {
  // members[d]: keys seen in the object open at depth d (-1: an array).
  const members = new Int32Array(bounds.maxDepth + 2);
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 /* " */) {
      const start = i;
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return null; // unterminated: JSON.parse says so
      if (bounds.maxStringChars !== undefined && end - start - 1 > bounds.maxStringChars) {
        return { status: 413, message: `A string in the JSON holds ${end - start - 1} characters; at most ${bounds.maxStringChars} are allowed` };
      }
      i = end;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth++;
      if (depth > bounds.maxDepth) return { status: 400, message: `The JSON nests deeper than ${bounds.maxDepth} levels` };
      members[depth] = code === 0x7b ? 0 : -1;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      if (depth > 0) depth--;
    } else if (code === 0x3a /* : */) {
      values++;
      if (depth > 0 && members[depth] >= 0 && ++members[depth] > bounds.maxObjectMembers) {
        return { status: 413, message: `A JSON object has more than ${bounds.maxObjectMembers} members` };
      }
    } else if (code === 0x2c /* , */) {
      if (depth > 0 && members[depth] < 0) values++;
    } else {
      continue;
    }
    if (values > bounds.maxValues) return { status: 413, message: `The JSON holds more than ${bounds.maxValues} values` };
  }
  return null;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let j = quote - 1; j >= 0 && text.charCodeAt(j) === 0x5c; j--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The application/json parser of every route: the shape is bounded first (jsonBoundsProblem),
 * then Fastify's own parser (prototype-poisoning checks) reads it. A refusal is a 400 or 413 in
 * the error shape, before any handler or authorisation sees the body.
 */
export function registerBoundedJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const problem = jsonBoundsProblem(body as string);
    if (problem) {
      done(new HttpError(problem.status, `${problem.message}; send a smaller document`, { i18nMessage: 'error.bodyTooComplex' }), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
