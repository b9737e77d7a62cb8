import type { ErrorSchema } from '@rjsf/utils';
import type { StudioIssue } from './studio-api.ts';

/**
 * The generator's issues as an RJSF error schema, so each message shows at the property it names.
 * `select` says where an issue belongs inside the form (its path relative to the form's object,
 * "" for the object itself) or null when it belongs to another form: for one field's editor,
 * "fields[email].validation.maxLenght" -> { validation: { maxLenght: { __errors: [...] } } }.
 */
export function issueErrors(issues: readonly StudioIssue[], select: (path: string) => string | null): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    const rest = select(issue.path);
    if (rest === null) continue;
    let node = root;
    for (const part of pathParts(rest)) node = (node[part] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(describe(issue));
  }
  return root as ErrorSchema;
}

/** The issues of field `name` (at index `index`), relative to the field. */
export function fieldIssuePath(name: string, index: number) {
  return (path: string): string | null => {
    const match = /^fields\[([^\]]+)\]\.?(.*)$/.exec(path);
    if (!match || (match[1] !== name && match[1] !== String(index))) return null;
    return match[2]!;
  };
}

/** The issues of the entity's own properties (everything but its fields). */
export function entityIssuePath(path: string): string | null {
  return path.startsWith('fields[') ? null : path;
}

/** "a.b[2].c" -> ["a", "b", "2", "c"]. */
export function pathParts(path: string): string[] {
  return path.split(/\.|\[|\]/).filter((part) => part !== '');
}

/** The message as the CLI words it, on one line. */
export function describe(issue: StudioIssue): string {
  const parts = [issue.message];
  if (issue.suggestion !== undefined) parts.push(`did you mean "${issue.suggestion}"?`);
  if (issue.expected) parts.push(`expected: ${issue.expected}`);
  if (issue.fix) parts.push(`fix: ${issue.fix}`);
  return parts.join(' · ');
}

/** The field a path is about ("fields[email].type" -> "email"; "fields[3]" -> the 4th field's name). */
export function fieldOfPath(path: string, names: readonly string[]): string | null {
  const match = /^fields\[([^\]]+)\]/.exec(path);
  if (!match) return null;
  const key = match[1]!;
  return /^\d+$/.test(key) && !names.includes(key) ? (names[Number(key)] ?? null) : key;
}
