import dayjs from 'dayjs';
import type { FieldModel } from '../model/client-entity-model.ts';

/** docs/product-rules.md#constants: day/month/year, 24-hour, with seconds. */
export const DATE_DISPLAY_FORMAT = 'DD/MM/YYYY HH:mm:ss';

export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value as string | number | Date);
  return date.isValid() ? date.format(DATE_DISPLAY_FORMAT) : String(value);
}

/** msToSeconds formatter: milliseconds shown as seconds with the column's decimals (latency). */
export function formatMsToSeconds(value: unknown, decimals: number | null): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = Number(value);
  if (!Number.isFinite(ms)) return String(value);
  return `${(ms / 1000).toFixed(decimals ?? 2)} s`;
}

/** A ref cell shows the referenced record's display field; the API returns refs populated. */
export function refLabel(value: unknown, display: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  const shown = record[display] ?? record._id ?? record.id;
  return shown === undefined || shown === null ? '' : String(shown);
}

export const TRUNCATE_LENGTH = 80;

export function truncate(text: string, length = TRUNCATE_LENGTH): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** Plain text of a scalar cell (strings, numbers, enums through their label keys). */
export function scalarText(field: FieldModel | null, value: unknown, translate: (key: string) => string): string {
  if (value === null || value === undefined) return '';
  if (field?.valueLabels && typeof value === 'string' && field.valueLabels[value]) return translate(field.valueLabels[value]);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
