import { describe, expect, test } from 'vitest';
import { generate } from '../../../generator/generate.ts';
import { manifest, metaSchema, realInput } from './fixture.ts';

// A field shows in the table, the export, the import and the filter bar unless its manifest opts
// it out; the explicit lists only order what they name. Every shipped manifest, several types.
const NAMES = ['bot', 'botTrace', 'botTraceStatus', 'contact', 'conversation', 'knowledge', 'knowledgeSource', 'role', 'setting', 'tenant', 'user', 'userApiKey'];
const TYPES = [
  { type: 'string', operator: 'like' },
  { type: 'number', operator: 'eq' },
  { type: 'boolean', operator: 'eq' },
  { type: 'date', operator: 'eq' },
] as const;

function withField(extra: Record<string, unknown>, type: string) {
  const input = realInput();
  for (const name of NAMES) manifest(input, name).fields.push({ name: 'extraNote', type, label: 'common.unknown', ...extra });
  return generate(input, metaSchema).models;
}

describe('a new field reaches every list without editing them', () => {
  for (const { type, operator } of TYPES) {
    test(`a ${type} field`, () => {
      const models = withField({}, type);
      for (const model of Object.values(models)) {
        expect(model.table.columns, model.name).toContain('extraNote');
        // Before the trailing system columns, so a list ending in createdAt keeps it last.
        const last = model.table.columns.at(-1)!;
        if (['createdAt', 'updatedAt'].includes(last)) expect(model.table.columns.indexOf('extraNote'), model.name).toBeLessThan(model.table.columns.indexOf(last));
        expect(model.export.headers, model.name).toContain('extraNote');
        expect(model.filters.find((filter) => filter.field === 'extraNote'), model.name).toEqual({ field: 'extraNote', operator, label: 'common.unknown', permission: null });
        expect(model.filterFields, model.name).toContain('extraNote');
        expect(model.import.fields, model.name).toContain('extraNote');
        expect(model.import.formats.length > 0, model.name).toBe(model.flags.importable);
        // Filterable by default, but not indexed: only a declared "filterable": true builds an index.
        expect(model.storage.indexes.some((index) => index.columns.includes('extraNote')), model.name).toBe(false);
        expect(model.storage.columns.some((column) => column.name === 'extraNote'), model.name).toBe(true);
      }
    });
  }

  test('the opt-outs leave it out of each list, and only that list', () => {
    const cases: [Record<string, unknown>, (m: ReturnType<typeof withField>[string]) => boolean][] = [
      [{ column: { hidden: true } }, (m) => !m.table.columns.includes('extraNote') && m.export.headers.includes('extraNote')],
      [{ exportable: false }, (m) => !m.export.headers.includes('extraNote') && m.table.columns.includes('extraNote')],
      [{ importable: false }, (m) => !m.import.fields.includes('extraNote') && m.export.headers.includes('extraNote')],
      [{ filterable: false }, (m) => !m.filters.some((f) => f.field === 'extraNote') && !m.filterFields.includes('extraNote') && m.table.columns.includes('extraNote')],
      [{ filter: { hidden: true } }, (m) => !m.filters.some((f) => f.field === 'extraNote') && m.filterFields.includes('extraNote')],
      [{ filter: { operator: 'eq' } }, (m) => m.filters.find((f) => f.field === 'extraNote')?.operator === 'eq'],
      [{ filterable: true }, (m) => m.storage.indexes.some((index) => index.columns[0] === 'extraNote')],
    ];
    for (const [extra, holds] of cases) {
      for (const model of Object.values(withField(extra, 'string'))) expect(holds(model), `${JSON.stringify(extra)} on ${model.name}`).toBe(true);
    }
  }, 60_000);

  test('list and object fields are not filterable by default; secret fields show nowhere', () => {
    for (const model of Object.values(withField({}, 'array.string'))) {
      expect(model.filters.some((f) => f.field === 'extraNote')).toBe(false);
      expect(model.table.columns).toContain('extraNote');
    }
    for (const model of Object.values(withField({ secret: true, readonly: true }, 'string'))) {
      expect(model.table.columns).not.toContain('extraNote');
      expect(model.export.headers).not.toContain('extraNote');
      expect(model.filters.some((f) => f.field === 'extraNote')).toBe(false);
    }
  });
});
