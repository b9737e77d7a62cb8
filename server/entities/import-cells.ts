import type { FieldModel } from '../../contract/model/entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import { jsonCodec, type CsvDecoded } from '../../contract/field-types/csv-codecs.ts';
import type { InputError } from '../http/http-error.ts';
import { unguardFormula } from './csv-formula-guard.ts';

/**
 * One CSV row (all text) to a create body: empty cells are absent (defaults apply), each cell is
 * read by its field type's CSV codec (numbers and booleans parsed, lists and objects as JSON, a
 * cell that does not parse named with the locale key of what it should hold), refs hold ids or
 * display values (resolved later, import-ref-resolver.ts). The quote an export put before formula-like text is removed
 * first (csv-formula-guard.ts), so the round trip is exact. Columns that are not fields pass
 * through unchanged so validation names them.
 */
export function csvRowToBody(fields: Map<string, FieldModel>, row: Record<string, string>): { body: Record<string, unknown>; errors: InputError[] } {
  const body: Record<string, unknown> = {};
  const errors: InputError[] = [];
  for (const [column, written] of Object.entries(row)) {
    if (written === '') continue;
    const cell = unguardFormula(written);
    const field = fields.get(column);
    if (!field) {
      body[column] = cell;
      continue;
    }
    const parsed = parseCell(field, cell);
    if (parsed.ok) body[column] = parsed.value;
    else errors.push({ field: column, reason: parsed.reason });
  }
  return { body, errors };
}

/** A field's cell codec: its type's (contract/field-types), JSON for a field stored as any JSON. */
function parseCell(field: FieldModel, cell: string): CsvDecoded {
  return (field.json ? jsonCodec : fieldType(field.type).csv).decode(cell);
}
