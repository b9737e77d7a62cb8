import type { ColumnModel, FieldModel } from '../../contract/model/entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import { enumCodec, jsonCodec, numberCodec, refCodec, textCodec as plainCodec, type CsvCodec } from '../../contract/field-types/csv-codecs.ts';
import type { RowBatch } from '../db/database.ts';
import type { SqlDialect } from '../db/sql-dialect.ts';
import type { EntityDefinition } from './entity-definition.ts';
import { guardCellStart, guardFormula } from './csv-formula-guard.ts';
import type { CsvLocalization } from './csv-localization.ts';
import { MISSING, type RefDisplayCache } from './ref-display-cache.ts';

/** One stored value to the text of its CSV cell (before quoting). */
type CellText = (value: unknown) => string;

/** Codecs whose machine-export text of a string is that string and of anything else its plain text (csv-codecs.ts). */
const PLAIN_TEXT_CODECS: ReadonlySet<CsvCodec> = new Set([plainCodec, numberCodec, enumCodec, refCodec]);

export interface CsvRowWriter {
  /** The header record. */
  header(): string;
  /** Loads the display values of the refs in `batch` (call before `lines`). */
  prime(batch: RowBatch): Promise<void>;
  /** The CSV records of `batch`, RFC 4180, CRLF-terminated. */
  lines(batch: RowBatch): string;
}

/**
 * Writes stored rows (arrays, as streamed) straight to CSV records: no per-row objects, no
 * per-row ref queries. What a cell shows is what a person reads in the table: refs by their
 * display value (the id when the record has none, empty when it is gone), array.refs as a JSON
 * list of those (`[]` when unset), lists and objects as JSON, booleans true/false, nothing as an empty cell. A cell
 * that a spreadsheet would run as a formula, read with any separator, gets quotes where it could
 * start (csv-formula-guard.ts). A cell is quoted when it holds `,`, `;`, tab, this file's
 * separator, a quote, CR or LF, whatever the separator, with quotes inside doubled.
 * Hand-written rather than csv-stringify on this hot path: profiles of a 1M-row export spent more
 * time in csv-stringify's option handling and per-record casting than the rules here need.
 */
export function csvRowWriter(
  definition: EntityDefinition,
  dialect: SqlDialect,
  headers: readonly string[],
  separator: string,
  refs: RefDisplayCache,
  /** The export's locale option: header labels and cell words for people (csv-localization.ts). */
  localization?: CsvLocalization,
): CsvRowWriter {
  const fields = headers.map((h) => definition.fields.get(h));
  const { finish, quote } = cellFinisher(separator);
  const cells = headers.map((h, i) => {
    const localized = localization?.cell(fields[i], definition.columns.get(h), dialect);
    return localized ? (value: unknown) => finish(localized(value)) : cellWriter(fields[i], definition.columns.get(h), dialect, refs, finish, separator);
  });
  const refHeaders = fields.flatMap((field, i) => (field?.ref ? [{ field, index: i, column: definition.columns.get(headers[i]), list: fieldType(field.type).list }] : []));
  // Column positions depend on the statement, so the record writer is compiled once per column order, not per row.
  const lineWriters = new Map<string, LineWriter>();
  const positions = (batch: RowBatch) =>
    headers.map((h) => {
      const at = batch.columns.indexOf(h);
      if (at < 0) throw new Error(`Export of ${definition.model.name}: column "${h}" was not selected`);
      return at;
    });
  const lineWriter = (batch: RowBatch) => {
    const key = batch.columns.join('\u0000');
    let writer = lineWriters.get(key);
    if (!writer) lineWriters.set(key, (writer = compileLineWriter(cells, positions(batch), separator)));
    return writer;
  };

  return {
    header() {
      return headers.map((h) => (localization ? finish(localization.header(h)) : quote(h))).join(separator) + '\r\n';
    },
    async prime(batch) {
      if (refHeaders.length === 0) return;
      const at = positions(batch);
      const wanted = new Map<FieldModel, Set<string>>();
      for (const { field, index, column, list } of refHeaders) {
        const ids = new Set<string>();
        const position = at[index];
        for (const row of batch.rows) {
          const value = row[position];
          if (!list) {
            if (value !== null && value !== undefined) ids.add(String(value));
          } else {
            for (const id of idsOf(dialect, column, value)) ids.add(id);
          }
        }
        wanted.set(field, ids);
      }
      await refs.prime(wanted);
    },
    lines(batch) {
      const line = lineWriter(batch);
      let out = '';
      for (const row of batch.rows) out += line(row);
      return out;
    },
  };
}

/** One stored row (as streamed) to its CSV record, CRLF included. */
type LineWriter = (row: unknown[]) => string;

/**
 * The record writer of one export, generated once per column order: one expression with a call
 * site per column, so each cell writer is called from a place that only ever sees it (V8 keeps
 * such calls monomorphic and inlines them; a loop over an array of cell writers calls seventeen
 * different functions from one place). The source holds only numbers and the separator quoted
 * with JSON.stringify, never a name or a value.
 */
function compileLineWriter(cells: readonly CellText[], positions: readonly number[], separator: string): LineWriter {
  const record = positions.map((at, i) => `cells[${i}](row[${at}])`).join(` + ${JSON.stringify(separator)} + `);
  const source = `return function writeLine(row) { return ${record || "''"} + '\\r\\n'; };`;
  return (new Function('cells', source) as (cells: readonly CellText[]) => LineWriter)(cells);
}

/**
 * quote(guardFormula(text)) in one scan for most cells: a text holding none of the characters
 * that need quotes holds none of the guard's cell breaks either (`,` `;` tab CR LF are among
 * them), so only its start needs the guard; a text that needs quotes still does once guarded.
 * Quoted when it holds any separator a reader might split on (not only this file's), a quote or
 * a line break: a reader guessing `,` in a `;` file still sees one cell. With `'` as the
 * separator the guard's own quote needs quoting, so that file takes the two steps.
 */
function cellFinisher(separator: string): { finish: (text: string) => string; quote: (text: string) => string } {
  const needsQuotes = new RegExp(`[,;\\t${separator.replace(/[\\\]^-]/g, '\\$&')}"\\r\\n]`);
  const quote = (text: string) => (needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  if (separator === "'") return { quote, finish: (text) => quote(guardFormula(text)) };
  return { quote, finish: (text) => (needsQuotes.test(text) ? `"${guardFormula(text).replace(/"/g, '""')}"` : guardCellStart(text)) };
}

/**
 * The finished cell (guarded, quoted) of one column in the machine export. Strings of text-like
 * columns skip the codec, whose text for a string is the string itself; finite numbers skip the
 * guard and the quotes, which no number's text can need unless the separator is part of it
 * (String(n) is a plain number: digits, `.`, `-`, `e`, `+`). Everything else goes through the
 * field type's codec (cellText).
 */
function cellWriter(field: FieldModel | undefined, column: ColumnModel | undefined, dialect: SqlDialect, refs: RefDisplayCache, finish: (text: string) => string, separator: string): CellText {
  const text = cellText(field, column, dialect, refs);
  const plain = !field || (!field.ref && !field.json && PLAIN_TEXT_CODECS.has(fieldType(field.type).csv));
  if (!plain || column?.type === 'json' || column?.type === 'boolean') return (value) => finish(text(value));
  const bareNumbers = !/[0-9.eE+-]/.test(separator);
  return (value) => {
    if (typeof value === 'string') return finish(value);
    if (value === null || value === undefined) return '';
    if (bareNumbers && typeof value === 'number' && Number.isFinite(value)) return String(value);
    return finish(text(value));
  };
}

/**
 * The cell text of one column: refs replaced by their display values here (the registry's codec
 * cannot query), then the field type's CSV codec (contract/field-types/csv-codecs.ts) writes it.
 */
function cellText(field: FieldModel | undefined, column: ColumnModel | undefined, dialect: SqlDialect, refs: RefDisplayCache): CellText {
  // Decoding only changes json and boolean columns (dialect.decode is the identity otherwise): skipped per cell for the rest.
  const decodes = column?.type === 'json' || column?.type === 'boolean';
  const decode = (value: unknown) => (decodes ? dialect.decode(column!.type, value) : value);
  if (!field) return (value) => plainCodec.encode(decode(value), null);
  const codec = field.json && !field.ref ? jsonCodec : fieldType(field.type).csv;
  if (field.ref && fieldType(field.type).list) {
    const lookup = refs.lookup(field);
    return (value) => {
      if (value === null || value === undefined) return codec.encode(value, null);
      const shown: unknown[] = [];
      for (const id of idsOf(dialect, column, value)) {
        const display = lookup(id);
        if (display !== MISSING) shown.push(display ?? id);
      }
      return codec.encode(shown, null);
    };
  }
  if (field.ref) {
    const lookup = refs.lookup(field);
    return (value) => {
      if (value === null || value === undefined) return codec.encode(null, null);
      const id = String(value);
      const display = lookup(id);
      return codec.encode(display === MISSING ? null : String(display ?? id), null);
    };
  }
  return (value) => codec.encode(decode(value), null);
}

/** The ids of an array.ref cell (stored as a JSON list). */
function idsOf(dialect: SqlDialect, column: ColumnModel | undefined, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const list = column ? dialect.decode(column.type, value) : value;
  return Array.isArray(list) ? list.filter((id) => id !== null && id !== undefined).map(String) : [];
}
