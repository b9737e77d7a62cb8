import type { FieldModel } from '../../contract/model/entity-model.ts';
import type { InputError } from '../http/http-error.ts';
import { INVALID_VALUE_REASON } from './entity-validator.ts';
import { unguardFormula } from './csv-formula-guard.ts';

export const INVALID_JSON_REASON = 'validation.invalidJson';

/**
 * One CSV row (all text) to a create body: empty cells are absent (defaults apply), numbers and
 * booleans are parsed, list / object columns hold JSON, refs hold ids or display values (resolved
 * later, import-ref-resolver.ts). The quote an export put before formula-like text is removed
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

function parseCell(field: FieldModel, cell: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (field.json) return parseJson(cell);
  switch (field.type) {
    case 'number': {
      const value = Number(cell.trim());
      return cell.trim() !== '' && Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: INVALID_VALUE_REASON };
    }
    case 'boolean': {
      const text = cell.trim().toLowerCase();
      if (text === 'true' || text === '1') return { ok: true, value: true };
      if (text === 'false' || text === '0') return { ok: true, value: false };
      return { ok: false, reason: INVALID_VALUE_REASON };
    }
    case 'object':
    case 'file':
    case 'fullFile':
    case 'array.string':
    case 'array.enum':
    case 'array.number':
    case 'array.ref':
    case 'array.object':
      return parseJson(cell);
    default:
      return { ok: true, value: cell };
  }
}

function parseJson(cell: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(cell) };
  } catch {
    return { ok: false, reason: INVALID_JSON_REASON };
  }
}
