import type { Rng } from '../../helpers/prng.ts';

type Schema = Record<string, any>;

/** A plausible value for a JSON Schema (enough to get past type checks so mutations hit deeper code). */
export function sampleFromSchema(schema: Schema | undefined, rng: Rng, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  if (Array.isArray(schema.enum) && schema.enum.length) return rng.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  const types: string[] = Array.isArray(schema.type) ? schema.type.filter((t: string) => t !== 'null') : schema.type ? [schema.type] : [];
  const type = types[0] ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'string':
      if (schema.format === 'email') return `fuzz${rng.int(1e6)}@example.com`;
      if (schema.format === 'date-time') return new Date(1_700_000_000_000 + rng.int(1e9)).toISOString();
      if (schema.format === 'date') return '2024-02-03';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/x';
      return `fuzz ${rng.int(1e6)}`.slice(0, Math.max(1, schema.maxLength ?? 20));
    case 'integer':
      return Math.max(schema.minimum ?? 0, 1);
    case 'number':
      return Math.max(schema.minimum ?? 0, 0.5);
    case 'boolean':
      return rng.chance(0.5);
    case 'array':
      return schema.items ? [sampleFromSchema(schema.items, rng, depth + 1)].filter((v) => v !== null) : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        if ((schema.required ?? []).includes(name) || rng.chance(0.5)) {
          const value = sampleFromSchema(prop, rng, depth + 1);
          if (value !== null) out[name] = value;
        }
      }
      return out;
    }
    default:
      return null;
  }
}
