import type { ColumnModel, FieldModel } from '../../contract/model/entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import { jsonCodec, textCodec as plainCodec } from '../../contract/field-types/csv-codecs.ts';
import type { RowBatch } from '../db/database.ts';
import type { SqlDialect } from '../db/sql-dialect.ts';
import type { EntityRuntime } from './entity-runtime.ts';
import { guardFormula } from './csv-formula-guard.ts';
import type { CsvLocalization } from './csv-localization.ts';
import { MISSING, type RefDisplayCache } from './ref-display-cache.ts';

/** One stored value to the text of its CSV cell (before quoting). */
type CellText = (value: unknown) => string;

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
  runtime: EntityRuntime,
  dialect: SqlDialect,
  headers: readonly string[],
  separator: string,
  refs: RefDisplayCache,
  /** The export's locale option: header labels and cell words for people (csv-localization.ts). */
  localization?: CsvLocalization,
): CsvRowWriter {
  const fields = headers.map((h) => runtime.fields.get(h));
  const texts = headers.map((h, i) => localization?.cell(fields[i], runtime.columns.get(h), dialect) ?? cellText(fields[i], runtime.columns.get(h), dialect, refs));
  const refHeaders = fields.flatMap((field, i) => (field?.ref ? [{ field, index: i, column: runtime.columns.get(headers[i]) }] : []));
  // Quoted when it holds any separator a reader might split on (not only this file's), a quote
  // or a line break: a reader guessing `,` in a `;` file still sees one cell.
  const needsQuotes = new RegExp(`[,;\\t${separator.replace(/[\\\]^-]/g, '\\$&')}"\\r\\n]`);
  const quote = (text: string) => (needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  // Column positions depend on the statement, so they are looked up once per batch, not per row.
  const positions = (batch: RowBatch) =>
    headers.map((h) => {
      const at = batch.columns.indexOf(h);
      if (at < 0) throw new Error(`Export of ${runtime.model.name}: column "${h}" was not selected`);
      return at;
    });

  return {
    header() {
      return headers.map((h) => quote(localization ? guardFormula(localization.header(h)) : h)).join(separator) + '\r\n';
    },
    async prime(batch) {
      if (refHeaders.length === 0) return;
      const at = positions(batch);
      const wanted = new Map<FieldModel, Set<string>>();
      for (const { field, index, column } of refHeaders) {
        const ids = new Set<string>();
        for (const row of batch.rows) {
          const value = row[at[index]];
          if (!fieldType(field.type).list) {
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
      const at = positions(batch);
      let out = '';
      for (const row of batch.rows) {
        for (let i = 0; i < texts.length; i++) {
          if (i > 0) out += separator;
          out += quote(guardFormula(texts[i](row[at[i]])));
        }
        out += '\r\n';
      }
      return out;
    },
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
