/**
 * Module hooks of the development server (scripts/dev-server.ts): a module of the project imported
 * by a module loaded as `...?forja-dev=N` is loaded as `...?forja-dev=N` too. Importing the server
 * with a new N so evaluates a fresh copy of every project module (the regenerated model included)
 * while the packages in node_modules, the slow part of a start, stay loaded. Plain JavaScript: the
 * hooks run on a thread of their own, before any TypeScript loader.
 */
const PROJECT = new URL('../', import.meta.url).href;
const VERSION = /[?&]forja-dev=(\d+)/;

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const version = context.parentURL ? VERSION.exec(context.parentURL)?.[1] : undefined;
  if (!version || !result.url.startsWith(PROJECT) || result.url.includes('/node_modules/')) return result;
  const url = new URL(result.url);
  url.searchParams.set('forja-dev', version);
  return { ...result, url: url.href };
}
