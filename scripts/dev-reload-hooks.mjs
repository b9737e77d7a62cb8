/**
 * Module hooks of the development server (scripts/dev-server.ts). The server imports its entry as
 * `...?forja-dev=N` (N: the reload's number); every project module that entry reaches is then
 * loaded as `...?forja-dev=V`, where V is the reload in which that module was last re-evaluated:
 * - a module whose file changed since (size or mtime), or that imports one directly or through
 *   others, gets V = N: a fresh copy, the regenerated model included;
 * - every other module keeps its V, so Node's module cache hands back the copy already loaded.
 * Re-evaluating only the changed part of the graph is what makes a reload take a fraction of a
 * second on a busy machine; the packages in node_modules are never reloaded. Plain JavaScript:
 * the hooks run on a thread of their own, before any TypeScript loader.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const PROJECT = new URL('../', import.meta.url).href;
const VERSION = /[?&]forja-dev=(\d+)/;

/** Per project file (URL without query): the reload that last evaluated it, and its stat then. */
const modules = new Map();
/** Per project file: the project files that import it (what must be re-evaluated with it). */
const importers = new Map();
let generation = 0;
/** To scripts/dev-server.ts, which prints how much each reload re-evaluated. */
let report = null;

export function initialize(data) {
  report = data?.port ?? null;
}

function statOf(url) {
  try {
    const stat = fs.statSync(fileURLToPath(url));
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/** Reload N starts: what changed on disk, and everything importing it, moves to version N. */
function startGeneration(next) {
  generation = next;
  const dirty = [];
  for (const [url, entry] of modules) {
    const stat = statOf(url);
    if (stat !== entry.stat) dirty.push(url);
  }
  const seen = new Set(dirty);
  for (let i = 0; i < dirty.length; i++) {
    for (const parent of importers.get(dirty[i]) ?? []) {
      if (!seen.has(parent)) {
        seen.add(parent);
        dirty.push(parent);
      }
    }
  }
  for (const url of seen) modules.set(url, { version: next, stat: statOf(url) });
  report?.postMessage({ generation: next, reloaded: seen.size, kept: modules.size - seen.size });
}

function versionOf(url) {
  let entry = modules.get(url);
  if (!entry) {
    entry = { version: generation, stat: statOf(url) };
    modules.set(url, entry);
  }
  return entry.version;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (!result.url.startsWith(PROJECT) || result.url.includes('/node_modules/')) return result;
  const parentVersion = context.parentURL ? VERSION.exec(context.parentURL)?.[1] : undefined;
  const ownVersion = VERSION.exec(result.url)?.[1];
  // Only the server's own modules: the entry (asked for with ?forja-dev=N) and what it reaches.
  if (parentVersion === undefined && ownVersion === undefined) return result;
  const url = new URL(result.url);
  url.search = '';
  const file = url.href;
  if (parentVersion === undefined) {
    // The entry of reload N.
    if (Number(ownVersion) > generation) startGeneration(Number(ownVersion));
  } else {
    const parentUrl = new URL(context.parentURL);
    parentUrl.search = '';
    let parents = importers.get(file);
    if (!parents) importers.set(file, (parents = new Set()));
    parents.add(parentUrl.href);
  }
  url.searchParams.set('forja-dev', String(versionOf(file)));
  return { ...result, url: url.href };
}
