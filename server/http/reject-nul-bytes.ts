import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError, type HttpError, type InputError } from './http-error.ts';

/** Most fields named in one refusal; the rest would only lengthen the answer. */
const MAX_REPORTED = 20;

/**
 * Where a NUL character (U+0000) sits in a parsed value: `name`, `chats.0.message`, or a key
 * itself. Iterative, so a 10,000-deep JSON body cannot overflow the stack.
 */
export function nulBytePaths(value: unknown, root = ''): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\0')) found.push(at);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], at ? `${at}.${i}` : String(i)]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const name = key.replaceAll('\0', '\\u0000');
        const path = at ? `${at}.${name}` : name;
        if (key.includes('\0')) found.push(path);
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
 * Refuses any request whose JSON body, query string or path parameters hold a NUL character:
 * 400 with an inputError (reason validation.nulCharacter) per field. PostgreSQL cannot store
 * U+0000 in text or jsonb and answered 500; SQLite stored it and cut strings short in some
 * readers. Refusing (rather than stripping) keeps "bad input changes nothing" and tells the
 * caller which field was wrong instead of silently altering what they sent. `skip` leaves a
 * route to a check of its own: /graphql checks in its own error format, and GraphiQL's static
 * files (same scope, so mercurius's error handler) read no input.
 */
export function rejectNulBytes(app: FastifyInstance, skip: (url: string) => boolean = isGraphqlScope): void {
  app.addHook('preValidation', async (request) => {
    if (skip(request.url)) return;
    const paths = requestNulBytePaths(request);
    if (paths.length > 0) throw nulByteError(paths);
  });
}

function isGraphqlScope(url: string): boolean {
  return url.startsWith('/graphql') || url.startsWith('/graphiql');
}
