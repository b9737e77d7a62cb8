import { describe, expect, it } from 'vitest';
import { fieldType } from '../../../contract/field-types/field-types.ts';
import { jsonCodec, textCodec } from '../../../contract/field-types/csv-codecs.ts';
import { postgresDialect } from '../../../server/db/postgres-dialect.ts';
import type { SqlDialect } from '../../../server/db/sql-dialect.ts';
import { sqliteDialect } from '../../../server/db/sqlite-dialect.ts';
import { createEntityAjv } from '../../../server/entities/ajv-instance.ts';
import { guardFormula } from '../../../server/entities/csv-formula-guard.ts';
import { csvRowWriter } from '../../../server/entities/csv-row-writer.ts';
import { defineEntities, type EntityDefinition } from '../../../server/entities/entity-definition.ts';
import { MISSING, type RefDisplayCache } from '../../../server/entities/ref-display-cache.ts';
import { entities } from '../../../server/generated/entities.ts';
import { schemas } from '../../../server/generated/schemas.ts';
import { createRng } from '../../helpers/prng.ts';

const definitions = defineEntities(entities, schemas, createEntityAjv());

/** A seeded generator (tests/helpers/prng.ts): the same cells on every run, and a failure names its seed. */
const random = (seed: number) => createRng(seed).next;
const PIECES = ["'", '=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', ' ', 'a', '1', '.', '|', 'e', 'Acme', '=2+5+', '\r\n', 'ñ', '🚀'];
const NUMBERS = [0, -0, 1, -1, 12.5, -12.5, 1e21, -1e-7, 3e300, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity];
const SEPARATORS = [';', ',', '\t', '|', "'", '.', '-', 'e', '1', '+', ' ', 'ñ'];

/** A stored value: JSON text in json columns, else of any kind (the writer must not trust a text column's values). */
function storedValue(next: () => number, type: string | undefined): unknown {
  const pick = next();
  if (type === 'json') return pick < 0.2 ? null : JSON.stringify(pick < 0.5 ? ['id-1', 'x,=1', '12', '-3'] : pick < 0.8 ? { a: '=1', b: [1, 'x;y'] } : [text(next)]);
  if (type === 'boolean') return pick < 0.2 ? null : pick < 0.6 ? 1 : 0;
  if (pick < 0.1) return null;
  if (pick < 0.15) return undefined;
  if (pick < 0.35) return NUMBERS[Math.floor(next() * NUMBERS.length)];
  if (pick < 0.4) return next() < 0.5 ? 0 : 1;
  if (pick < 0.45) return next() < 0.5;
  return text(next);
}

function text(next: () => number): string {
  let out = '';
  const length = Math.floor(next() * 10);
  for (let i = 0; i < length; i++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

/** Refs: some ids known with a display value, one known without, the rest gone. */
const refs = {
  async prime() {},
  lookup: () => (id: string) => (id === '=1' ? '@display' : id === '1' ? null : id.length % 2 === 0 ? `shown ${id}` : MISSING),
} as unknown as RefDisplayCache;

/**
 * What the export wrote before its record writer was compiled, one cell at a time: refs by their
 * display, the field type's codec on the decoded value, then the formula guard and the quotes.
 */
function referenceLine(definition: EntityDefinition, dialect: SqlDialect, headers: readonly string[], separator: string, row: readonly unknown[]): string {
  const needsQuotes = new RegExp(`[,;\\t${separator.replace(/[\\\]^-]/g, '\\$&')}"\\r\\n]`);
  const quote = (text: string) => (needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lookup = refs.lookup(undefined as never);
  return headers.map((h, i) => {
    const field = definition.fields.get(h);
    const column = definition.columns.get(h);
    const value = row[i];
    const decoded = column?.type === 'json' || column?.type === 'boolean' ? dialect.decode(column.type, value) : value;
    let text: string;
    if (!field) text = textCodec.encode(decoded, null);
    else if (field.ref && fieldType(field.type).list) {
      const list = column ? dialect.decode(column.type, value) : value;
      const shown = value === null || value === undefined ? value : (Array.isArray(list) ? list.filter((id) => id !== null && id !== undefined).map(String) : []).flatMap((id) => {
        const display = lookup(id);
        return display === MISSING ? [] : [display ?? id];
      });
      text = fieldType(field.type).csv.encode(shown, null);
    } else if (field.ref) {
      const display = value === null || value === undefined ? MISSING : lookup(String(value));
      text = fieldType(field.type).csv.encode(display === MISSING ? null : String(display ?? value), null);
    } else {
      text = (field.json ? jsonCodec : fieldType(field.type).csv).encode(decoded, null);
    }
    return quote(guardFormula(text));
  }).join(separator) + '\r\n';
}

describe('the CSV export record writer (server/entities/csv-row-writer.ts)', () => {
  // Every entity's exportable columns on both engines' decoding, hostile text and odd numbers in
  // every column, with separators that are also part of numbers, quotes or the guard itself.
  it('writes, for every entity and separator, what the per-cell codec, guard and quoting write', async () => {
    const seed = 30;
    const next = random(seed);
    let cells = 0;
    for (const definition of Object.values(definitions)) {
      const headers = [...definition.columns.keys()].filter((name) => !definition.fields.get(name)?.secret);
      for (const dialect of [sqliteDialect, postgresDialect]) {
        for (const separator of SEPARATORS) {
          const writer = csvRowWriter(definition, dialect, headers, separator, refs);
          // Streamed columns in another order than the headers: the writer maps them.
          const columns = [...headers].reverse();
          const rows = Array.from({ length: 20 }, () => columns.map((name) => storedValue(next, definition.columns.get(name)?.type)));
          await writer.prime({ columns, rows });
          const expected = rows.map((row) => referenceLine(definition, dialect, headers, separator, headers.map((h) => row[columns.indexOf(h)]))).join('');
          expect(writer.lines({ columns, rows }), `${definition.model.name}, ${dialect.name}, separator ${JSON.stringify(separator)}, seed ${seed}`).toBe(expected);
          cells += rows.length * headers.length;
        }
      }
    }
    expect(cells).toBeGreaterThan(10_000);
  });

  it('refuses a batch that lacks an exported column, naming it', () => {
    const definition = definitions.bottrace;
    const writer = csvRowWriter(definition, sqliteDialect, ['_id', 'userMessage'], ';', refs);
    expect(() => writer.lines({ columns: ['_id'], rows: [['x']] })).toThrow(/column "userMessage" was not selected/);
  });
});
