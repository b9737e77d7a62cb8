import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

/** The only folders the studio reads from and writes to, relative to the project root. */
export const STUDIO_FOLDERS = ['manifests', 'locales'] as const;
/** Files in manifests/ that are not entity manifests (the studio never writes them). */
const NOT_ENTITY_FILES = new Set(['manifest.schema.json', 'enums.json']);
export const STUDIO_LOCALES = ['es', 'en'] as const;
/** An entity name as a file name: letters and digits, starting with a lowercase letter (no dots, no slashes). */
export const ENTITY_NAME = /^[a-z][A-Za-z0-9]{0,63}$/;

/** Version of a file's contents, as sent in ETag / If-Match ("none" when it does not exist). */
export function versionOf(text: string | null): string {
  return text === null ? 'none' : createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/**
 * The absolute path of `relative` (manifests/x.json, locales/es.json) when it is a file the
 * studio may touch; null otherwise. Checked on the resolved path, so `..`, absolute paths and
 * a symlinked folder pointing elsewhere are all refused.
 */
export function studioPath(root: string, relative: string): string | null {
  const resolved = path.resolve(root, relative);
  for (const folder of STUDIO_FOLDERS) {
    const dir = path.join(root, folder);
    if (path.dirname(resolved) !== dir || !resolved.endsWith('.json')) continue;
    let realDir: string;
    try {
      realDir = fs.realpathSync(dir);
    } catch {
      return null;
    }
    if (realDir !== path.join(fs.realpathSync(root), folder)) return null;
    if (folder === 'manifests' && NOT_ENTITY_FILES.has(path.basename(resolved))) return null;
    if (folder === 'locales' && !STUDIO_LOCALES.some((l) => path.basename(resolved) === `${l}.json`)) return null;
    try {
      if (fs.lstatSync(resolved).isSymbolicLink()) return null;
    } catch {
      // Not there yet: a new manifest.
    }
    return resolved;
  }
  return null;
}

export function readText(root: string, relative: string): string | null {
  const absolute = studioPath(root, relative);
  if (!absolute) throw new Error(`${relative}: not a file the schema studio may read`);
  try {
    return fs.readFileSync(absolute, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Every entity manifest's file name (manifests/*.json but the meta-schema and the shared enums). */
export function listManifestFiles(root: string): string[] {
  return fs.readdirSync(path.join(root, 'manifests'))
    .filter((name) => name.endsWith('.json') && !NOT_ENTITY_FILES.has(name))
    .sort()
    .map((name) => `manifests/${name}`);
}

/** A manifest file as the studio reads it: its text and the entity it holds. */
export interface ManifestOnDisk {
  file: string;
  text: string | null;
  /** Its JSON; undefined when the text is not valid JSON. */
  json: unknown;
  /** Why the text is not valid JSON (the parser's message). */
  jsonError?: string;
  /** The entity it holds: its "name", or the file's own name when that cannot be read. */
  name: string;
}

/** Every entity manifest as it is on disk now. */
export function readManifests(root: string): ManifestOnDisk[] {
  return listManifestFiles(root).map((file) => {
    const text = readText(root, file);
    let json: unknown;
    let jsonError: string | undefined;
    try {
      json = text === null ? undefined : JSON.parse(text);
    } catch (error) {
      jsonError = (error as Error).message;
    }
    const declared = json && typeof json === 'object' ? (json as { name?: unknown }).name : undefined;
    return { file, text, json, ...(jsonError ? { jsonError } : {}), name: typeof declared === 'string' ? declared : path.basename(file, '.json') };
  });
}

/** Where the studio reads and writes an entity's manifest. */
export interface ManifestLocation {
  /** The file holding the entity, or the one a new entity gets (manifests/<name>.json). */
  file: string;
  /** That file as read; null for a new entity's (not there yet). */
  onDisk: ManifestOnDisk | null;
  /** Why the studio may not use that file for the entity; null when it may. */
  problem: { kind: 'ambiguous' | 'taken'; message: string; fix: string; holder?: string } | null;
}

/**
 * The file of entity `name`: the manifest whose "name" it is, whatever the file is called
 * (manifests/botTrace.json holds "bottrace"), else manifests/<name>.json for a new entity. The
 * generator wants each file named for its entity in any letter case, so a new entity whose file
 * name another entity's file already has, in any case, is refused rather than written over it
 * (a case-insensitive disk, as macOS has, would even open that other file).
 */
export function locateManifest(manifests: readonly ManifestOnDisk[], name: string): ManifestLocation {
  const holders = manifests.filter((m) => m.name === name);
  if (holders.length > 1) {
    const files = holders.map((m) => m.file);
    return {
      file: files[0]!,
      onDisk: holders[0]!,
      problem: {
        kind: 'ambiguous',
        message: `${files.slice(0, -1).join(', ')} and ${files.at(-1)} both hold the entity "${name}" (their "name")`,
        fix: 'remove or rename one of them in an editor (npm run generate reports the duplicate); the studio edits an entity held by one file only',
      },
    };
  }
  if (holders.length === 1) return { file: holders[0]!.file, onDisk: holders[0]!, problem: null };
  const file = `manifests/${name}.json`;
  const other = manifests.find((m) => m.file.toLowerCase() === file.toLowerCase());
  if (!other) return { file, onDisk: null, problem: null };
  return {
    file: other.file,
    onDisk: null,
    problem: other.json === undefined
      ? { kind: 'taken', message: `${other.file} is not valid JSON, and a new entity "${name}" would need that file`, fix: 'fix the file in an editor (npm run generate names the line)' }
      : {
        kind: 'taken',
        holder: other.name,
        message: `${other.file} holds the entity "${other.name}", and a new entity "${name}" would need that file (a manifest's file is named for its entity, in any letter case)`,
        fix: `give the new entity another name, or open "${other.name}" to edit it`,
      },
  };
}

/** What the write step does to the disk, replaceable in tests that make a step fail. */
export interface FileSystemSteps {
  writeFile(file: string, text: string): void;
  rename(from: string, to: string): void;
  unlink(file: string): void;
}

const REAL_STEPS: FileSystemSteps = {
  writeFile: (file, text) => {
    const fd = fs.openSync(file, 'wx', 0o644);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
  rename: (from, to) => fs.renameSync(from, to),
  unlink: (file) => fs.rmSync(file, { force: true }),
};

/**
 * Writes several files all or nothing: each text goes to a temporary file beside its target
 * first (a reader never sees half a file), then each is renamed over its target; if any step
 * fails, the targets already replaced get their previous contents back (a target that did not
 * exist is removed) and the temporary files are deleted, then the error is thrown.
 */
export function writeFilesAtomically(root: string, files: ReadonlyMap<string, string>, steps: FileSystemSteps = REAL_STEPS): void {
  const planned = [...files].map(([relative, text]) => {
    const target = studioPath(root, relative);
    if (!target) throw new Error(`${relative}: the schema studio writes only manifests/<entity>.json and locales/{es,en}.json`);
    const previous = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.studio-${randomBytes(6).toString('hex')}.tmp`);
    return { target, temp, text, previous };
  });
  const written: typeof planned = [];
  const renamed: typeof planned = [];
  try {
    for (const file of planned) {
      steps.writeFile(file.temp, file.text);
      written.push(file);
    }
    for (const file of planned) {
      steps.rename(file.temp, file.target);
      renamed.push(file);
    }
  } catch (error) {
    for (const file of renamed.reverse()) {
      if (file.previous === null) fs.rmSync(file.target, { force: true });
      else REAL_STEPS.writeFile(`${file.temp}.undo`, file.previous), fs.renameSync(`${file.temp}.undo`, file.target);
    }
    for (const file of written) if (!renamed.includes(file)) steps.unlink(file.temp);
    throw error;
  }
}

/** Puts files back as they were before a write (null: the file did not exist, so it is removed). */
export function restoreFiles(root: string, previous: ReadonlyMap<string, string | null>): void {
  const back = new Map<string, string>();
  for (const [relative, text] of previous) {
    if (text !== null) back.set(relative, text);
    else {
      const target = studioPath(root, relative);
      if (target) fs.rmSync(target, { force: true });
    }
  }
  if (back.size > 0) writeFilesAtomically(root, back);
}
