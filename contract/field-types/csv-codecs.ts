// How each field type's value reads in a CSV cell: written by exports (server/entities/csv-row-writer.ts,
// csv-localization.ts) and read back by imports (server/entities/import-cells.ts). Pure functions,
// safe anywhere. The formula guard and quoting are the writer's, not the codec's.

/** A cell read back: the value, or the locale key saying what the cell should hold. */
export type CsvDecoded = { ok: true; value: unknown } | { ok: false; reason: string };

/** An allowed value (enum, boolean) to the words a person reads in a localised export. */
export type CsvWords = (value: string) => string;

export interface CsvCodec {
  /**
   * The cell text of a value as a person reads it: refs already replaced by their display values
   * (the server resolves them), `words` set in a localised export, null in the machine export
   * that imports read back.
   */
  encode(value: unknown, words: CsvWords | null): string;
  /** A non-empty cell (empty cells are absent values) back to the value a body carries. */
  decode(cell: string): CsvDecoded;
}

/** Locale keys of the import's per-cell refusals (locales/*.json, validation.csv.*). */
export const CSV_REASONS = {
  number: 'validation.csv.number',
  boolean: 'validation.csv.boolean',
  json: 'validation.invalidJson',
} as const;

/** Nothing reads as an empty cell, objects and lists as JSON, the rest as their text. */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const asWritten = (cell: string): CsvDecoded => ({ ok: true, value: cell });

function parseJson(cell: string): CsvDecoded {
  try {
    return { ok: true, value: JSON.parse(cell) };
  } catch {
    return { ok: false, reason: CSV_REASONS.json };
  }
}

/** Text kept as written. */
export const textCodec: CsvCodec = { encode: (value) => plainText(value), decode: asWritten };

/** A number in JavaScript notation (12, -3.5, 1e3); surrounding spaces are ignored. */
export const numberCodec: CsvCodec = {
  encode: (value) => plainText(value),
  decode(cell) {
    const text = cell.trim();
    const value = Number(text);
    return text !== '' && Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: CSV_REASONS.number };
  },
};

/** true/false (1/0 read too, any case); a localised export writes the field's yes/no words. */
export const booleanCodec: CsvCodec = {
  encode: (value, words) => (words ? labelled(value, words) : plainText(value)),
  decode(cell) {
    const text = cell.trim().toLowerCase();
    if (text === 'true' || text === '1') return { ok: true, value: true };
    if (text === 'false' || text === '0') return { ok: true, value: false };
    return { ok: false, reason: CSV_REASONS.boolean };
  },
};

/** One allowed value as written (validation checks it); a localised export writes its label. */
export const enumCodec: CsvCodec = {
  encode: (value, words) => (words ? labelled(value, words) : plainText(value)),
  decode: asWritten,
};

/** Lists, objects and file descriptions as JSON. */
export const jsonCodec: CsvCodec = { encode: (value) => plainText(value), decode: parseJson };

/** A JSON list of allowed values; a localised export writes their labels, comma-separated. */
export const enumListCodec: CsvCodec = {
  encode: (value, words) => (words ? (Array.isArray(value) ? value : []).map((item) => words(String(item))).join(', ') : plainText(value)),
  decode: parseJson,
};

/** A referenced record's display value (its id when it has none); an import resolves either back. */
export const refCodec: CsvCodec = { encode: (value) => plainText(value), decode: asWritten };

/** A JSON list of display values; a list never set reads as [] (as in the JSON export and the API). */
export const refListCodec: CsvCodec = {
  encode: (value) => (value === null || value === undefined ? '[]' : plainText(value)),
  decode: parseJson,
};

function labelled(value: unknown, words: CsvWords): string {
  if (value === null || value === undefined || value === '') return '';
  return words(String(value));
}
