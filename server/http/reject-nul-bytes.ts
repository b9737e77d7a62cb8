import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError, type HttpError, type InputError } from './http-error.ts';

/** In unicode mode a paired surrogate is one code point outside this range: only lone ones match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Most fields named in one refusal; the rest would only lengthen the answer. */
const MAX_REPORTED = 20;

/**
 * Where a NUL character (U+0000) sits in a parsed value: `name`, `chats.0.message`, or a key
 * itself. Iterative, so a 10,000-deep JSON body cannot overflow the stack.
 */
export function nulBytePaths(value: unknown, root = ''): string[] {
  return pathsWhere(value, root, (text) => text.includes('\0'));
}

/**
 * Where a lone UTF-16 surrogate (JSON's "\ud800" without its pair) sits: it is not text, and
 * PostgreSQL refused it with an unshaped 500 ("invalid input syntax for type json") where SQLite
 * stored it. Refused on both engines alike.
 */
export function loneSurrogatePaths(value: unknown, root = ''): string[] {
  return pathsWhere(value, root, (text) => LONE_SURROGATE.test(text));
}

function pathsWhere(value: unknown, root: string, bad: (text: string) => boolean): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (bad(current)) found.push(at);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], at ? `${at}.${i}` : String(i)]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const name = key.replaceAll('\0', '\\u0000');
        const path = at ? `${at}.${name}` : name;
        if (bad(key)) found.push(path);
        stack.push([child, path]);
      }
    }
  }
  return found;
}

/** Every NUL-holding field of a request's path parameters, query string and body. */
export function requestNulBytePaths(request: FastifyRequest): string[] {
  return [...nulBytePaths(request.params ?? null), ...nulBytePaths(request.query ?? null), ...nulBytePaths(request.body ?? null)];
}

/** The 400 for those fields: one inputError (reason validation.nulCharacter) per field. */
export function nulByteError(paths: string[]): HttpError {
  const inputErrors: InputError[] = paths.slice(0, MAX_REPORTED).map((field) => ({ field, reason: 'validation.nulCharacter' }));
  return validationError(inputErrors, `The NUL character (U+0000) is not allowed in ${paths.slice(0, 5).map((p) => p || 'the body').join(', ')}`);
}

/**
 * The 400 for text that is not text: a NUL character (reason validation.nulCharacter) or a lone
 * surrogate (validation.loneSurrogate) in the path parameters, query string or body; null when
 * there is none.
 */
export function unusableTextError(request: FastifyRequest): HttpError | null {
  return unusableTextIn([request.params ?? null, request.query ?? null, request.body ?? null]);
}

/** The same check over parsed values (GraphQL arguments, whose literals the body check cannot see). */
export function unusableTextIn(values: unknown[]): HttpError | null {
  const nul = values.flatMap((value) => nulBytePaths(value));
  if (nul.length > 0) return nulByteError(nul);
  const surrogates = values.flatMap((value) => loneSurrogatePaths(value));
  if (surrogates.length === 0) return null;
  const inputErrors: InputError[] = surrogates.slice(0, MAX_REPORTED).map((field) => ({ field, reason: 'validation.loneSurrogate' }));
  return validationError(
    inputErrors,
    `A lone UTF-16 surrogate (\\ud800-\\udfff without its pair) is not valid text in ${surrogates.slice(0, 5).map((p) => p || 'the body').join(', ')}; send well-formed Unicode`,
  );
}

/**
 * A query parameter given more than once (`?format=CSV&format=JSON`): every parameter of this API
 * is one value, and the handlers read strings, so a repeated one is a 400 naming it rather than
 * whichever copy a handler happened to read (or a TypeError 500).
 */
export function repeatedParameterError(query: unknown): HttpError | null {
  if (query === null || typeof query !== 'object') return null;
  const repeated = Object.entries(query).filter(([, value]) => Array.isArray(value)).map(([name]) => name);
  if (repeated.length === 0) return null;
  return validationError(
    repeated.slice(0, MAX_REPORTED).map((field) => ({ field, reason: 'validation.repeatedParameter' })),
    `Query parameter${repeated.length > 1 ? 's' : ''} ${repeated.slice(0, 5).map((name) => `"${name}"`).join(', ')} ${repeated.length > 1 ? 'were' : 'was'} given more than once; give each parameter once`,
  );
}

/**
 * Refuses any request whose JSON body, query string or path parameters hold a NUL character or a
 * lone surrogate, or whose query string repeats a parameter (repeatedParameterError).
 * NUL:
 * 400 with an inputError (reason validation.nulCharacter) per field. PostgreSQL cannot store
 * U+0000 in text or jsonb and answered 500; SQLite stored it and cut strings short in some
 * readers. Refusing (rather than stripping) keeps "bad input changes nothing" and tells the
 * caller which field was wrong instead of silently altering what they sent. `skip` leaves a
 * route to a check of its own: /graphql checks in its own error format, and GraphiQL's static
 * files (same scope, so mercurius's error handler) read no input.
 */
export function rejectUnusableInput(app: FastifyInstance, skip: (url: string) => boolean = isGraphqlScope): void {
  app.addHook('preValidation', async (request) => {
    if (skip(request.url)) return;
    const error = repeatedParameterError(request.query) ?? unusableTextError(request);
    if (error) throw error;
  });
}

function isGraphqlScope(url: string): boolean {
  return url.startsWith('/graphql') || url.startsWith('/graphiql');
}
