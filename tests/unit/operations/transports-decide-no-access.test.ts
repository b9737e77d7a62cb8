import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * "Operations own access" (docs/architecture.md, "Add a transport"): a transport (a file that
 * registers REST routes, or a GraphQL resolver file) only reads its wire format and runs an
 * operation. Read from the sources, so a route that starts deciding who may call it fails here
 * with the file and the line, not in a review.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Registers a route: app.get(...), scope.post<...>(...), app.route({...}). */
const REGISTERS_ROUTE = /\b(?:app|scope|instance|fastify)\.(?:get|post|put|patch|delete|route)\s*[<(]/;

/** What deciding access looks like in code: each is the job of an operation (server/operations). */
const ACCESS_DECISIONS: Array<[string, RegExp]> = [
  ['calls enforce()', /\benforce\s*\(/],
  ['asks hasPermission()', /\bhasPermission\s*\(/],
  ['calls an authorizer', /\b(?:authorizer|authorizeOperation|permissionAuthorizer)\s*\(/],
  ['answers 401 itself', /\bauthenticationError\s*\(/],
  ['tests for an anonymous caller', /\.userId\s*[!=]==?\s*null/],
  ['reads the caller\'s permissions', /\bcontext\.permissions\b/],
  ['declares a permission on the route', /config\s*:\s*\{[^}]*\bpermission\s*:/],
  ['spells out a permission', /\bpermission\s*:\s*\{\s*entity\b/],
  ['declares a signed-in-only route', /\bauthenticated\s*:\s*true/],
  ['answers 403 itself', /HttpError\(\s*403/],
  ['runs an operation\'s admission by hand', /\.admit\s*\(/],
];

/** Transports that still decide access, each with the reason: none since the studio's routes became operations. */
const NOT_YET_OPERATIONS = new Set<string>();

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The transports: every file registering a route, and every GraphQL resolver file. */
function transports(): string[] {
  return sources('server').filter((file) => REGISTERS_ROUTE.test(read(file)) || /^server\/graphql\/.*resolvers\.ts$/.test(file));
}

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/** Every access decision in `text`, as "line N: what", comments left out (they may name what they do not do). */
function decisionsIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '').replace(/\/\*.*?\*\//g, '');
    for (const [what, pattern] of ACCESS_DECISIONS) if (pattern.test(code)) found.push(`line ${index + 1}: ${what}`);
  });
  return found;
}

describe('transports decide no access', () => {
  it('no route or resolver file checks a permission or a caller: their operations do', () => {
    const offenders = transports()
      .filter((file) => !NOT_YET_OPERATIONS.has(file))
      .flatMap((file) => decisionsIn(read(file)).map((decision) => `${file} ${decision}`));
    expect(offenders).toEqual([]);
  });

  it('the listed exceptions still decide access (remove them from the list once they are operations)', () => {
    for (const file of NOT_YET_OPERATIONS) expect(decisionsIn(read(file)), file).not.toEqual([]);
  });

  it('the scan sees the transports and would see a check (a broken pattern would pass the rule above)', () => {
    const found = transports();
    for (const file of ['server/rag/rag-routes.ts', 'server/chat/contact-merge-routes.ts', 'server/identity/password-routes.ts', 'server/entities/entity-routes.ts', 'server/graphql/identity-resolvers.ts', 'server/settings/settings-routes.ts', 'server/jobs/job-routes.ts']) {
      expect(found, file).toContain(file);
    }
    for (const planted of [
      'await enforce(request, remove);',
      "app.get('/x', { config: { permission: VIEW } }, handler);",
      "app.get('/x', { config: { authenticated: true } }, handler);",
      'if (request.context.userId === null) throw authenticationError(request.context);',
      "if (hasPermission(context, 'role:view')) return all;",
      'await merge.admit(callerOf(request));',
      "  permission: { entity: 'studio', action: 'update', permission: SCHEMA_MANAGE, alternatives: [] },",
    ]) {
      expect(decisionsIn(planted), planted).not.toEqual([]);
    }
  });
});
