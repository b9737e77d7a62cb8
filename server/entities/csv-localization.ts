import es from '../../locales/es.json' with { type: 'json' };
import en from '../../locales/en.json' with { type: 'json' };
import type { ColumnModel, FieldModel } from '../../contract/model/entity-model.ts';
import { fieldType } from '../../contract/field-types/field-types.ts';
import type { SqlDialect } from '../db/sql-dialect.ts';
import { badRequest } from '../http/http-error.ts';
import type { EntityDefinition } from './entity-definition.ts';

type Tree = { [key: string]: string | Tree };
const LOCALES = { es: es as Tree, en: en as Tree } as const;
export type ExportLocale = keyof typeof LOCALES;
/** The languages an export's `locale` may name (documented in the OpenAPI document). */
export const EXPORT_LOCALES = Object.keys(LOCALES) as ExportLocale[];

/** System columns' locale keys; the rest use their field's label. */
const SYSTEM_LABELS: Record<string, string> = { _id: 'common.id', createdAt: 'common.createdAt', updatedAt: 'common.updatedAt' };

/**
 * The export's `locale` option (es, en; a region such as es-ES counts as its language). Absent:
 * null, the machine-readable CSV (field names, stored values) that imports read back.
 */
export function readExportLocale(raw: string | undefined): ExportLocale | null {
  if (raw === undefined || raw.trim() === '') return null;
  const language = raw.trim().toLowerCase().split(/[-_]/)[0];
  if (language in LOCALES) return language as ExportLocale;
  throw badRequest(`locale must be one of ${Object.keys(LOCALES).join(', ')} (or empty for field names and stored values); got "${raw}"`);
}

/** How a CSV export reads for people in one language: the header labels and the cells that need words. */
export interface CsvLocalization {
  header(name: string): string;
  /** The cell text of a field whose stored value is not what a person reads (enum, boolean, ms), else null. */
  cell(field: FieldModel | undefined, column: ColumnModel | undefined, dialect: SqlDialect): ((value: unknown) => string) | null;
}

/**
 * The console's own words (locales/*.json, English where a key is missing): header labels as the
 * table shows them, enum values (reactions, roles…) and booleans by their labels, durations the
 * table shows in seconds (formatter msToSeconds) in seconds with the language's decimal mark.
 * Dates stay ISO 8601 (UTC): the server does not know the reader's time zone.
 */
export function csvLocalization(definition: EntityDefinition, locale: ExportLocale): CsvLocalization {
  const t = (key: string) => lookup(LOCALES[locale], key) ?? lookup(LOCALES.en, key) ?? key;
  return {
    header(name) {
      const field = definition.fields.get(name);
      if (field) return t(field.label);
      if (SYSTEM_LABELS[name]) return t(SYSTEM_LABELS[name]);
      if (name === definition.tenantColumn) return t('entity.tenant.label');
      return name;
    },
    cell(field, column, dialect) {
      if (!field) return null;
      const decode = (value: unknown) => (column ? dialect.decode(column.type, value) : value);
      const labels = field.valueLabels;
      // Only fields with allowed values (enum, array.enum, boolean) have labels; their codec places the words.
      if (labels) {
        const encode = fieldType(field.type).csv.encode;
        const words = (value: string) => (labels[value] ? t(labels[value]) : value);
        return (value) => encode(decode(value), words);
      }
      if (field.column.formatter === 'msToSeconds') {
        const decimals = field.column.decimals ?? 2;
        const format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false });
        return (value) => {
          const ms = Number(decode(value));
          return value === null || value === undefined || !Number.isFinite(ms) ? '' : format.format(ms / 1000);
        };
      }
      return null;
    },
  };
}

function lookup(tree: Tree, key: string): string | null {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return null;
    node = node[part];
  }
  return typeof node === 'string' ? node : null;
}
