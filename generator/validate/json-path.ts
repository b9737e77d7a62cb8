/** Turns path segments into the dotted form used in messages: fields[2].ref.entity. */
export function toJsonPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number' || /^\d+$/.test(segment)) out += `[${segment}]`;
    else out += out ? `.${segment}` : segment;
  }
  return out;
}

/** Converts an ajv instancePath (/fields/2/ref) into segments. */
export function pointerToSegments(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export function valueAt(root: unknown, segments: readonly (string | number)[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
