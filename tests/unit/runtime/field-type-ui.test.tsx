import { beforeAll, describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { FIELD_TYPES } from '../../../contract/model/entity-model.ts';
import { fieldType } from '../../../contract/field-types/field-types.ts';
import { CELL_KINDS, type CellKind } from '../../../contract/field-types/field-type-definition.ts';
import { formFields, formWidgets } from '../../../runtime/form/form-registry.ts';
import { entityCellContent } from '../../../runtime/table/entity-cell-content.tsx';
import type { TableColumnSpec } from '../../../runtime/table/table-columns.ts';
import { entities } from '../../../src/generated/entities.ts';
import { installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);

// The registry names UI pieces the runtime must have: a widget or field for each type's form
// facet, and a drawing for each cell kind.

describe('field types in the console', () => {
  it('every form widget and field a type names is registered with the form', () => {
    for (const type of FIELD_TYPES) {
      const { widget, field } = fieldType(type).form;
      if (widget !== null) expect(formWidgets, `${type}: widget "${widget}"`).toHaveProperty([widget]);
      if (field !== null) expect(formFields, `${type}: field "${field}"`).toHaveProperty([field]);
    }
  });

  const base = entities.bottracestatus.fields[0]!;
  // [kind, a value, the text the cell shows]
  const SAMPLES: Record<CellKind, [unknown, string]> = {
    text: ['hola', 'hola'],
    longText: ['x'.repeat(100), `${'x'.repeat(79)}…`],
    date: ['2026-11-26T10:00:00.000Z', '26/11/2026'],
    boolean: [true, 'common.yes'],
    ref: [{ _id: 'r1', name: 'Ana' }, 'Ana'],
    refList: [[{ _id: 'a', name: 'Ana' }, { _id: 'b', name: 'Bo' }], 'AnaBo'],
    chips: [['a', 'b'], 'ab'],
    count: [[1, 2, 3], '3'],
    fileName: ['uploads/photo.png', 'photo.png'],
    uploadedFile: [{ filename: 'doc.pdf', filepath: 'f/doc.pdf' }, 'doc.pdf'],
    secret: ['hunter2', ''],
  };

  it.each(CELL_KINDS)('the table draws the %s cell kind', (kind) => {
    const column: TableColumnSpec = { name: 'f', label: 'f', field: { ...base, valueLabels: null, ref: { entity: 'x', display: 'name', populate: [], clearable: true, onDelete: 'restrict' } }, kind, sortable: false };
    const [value, text] = SAMPLES[kind];
    const { container } = render(<MantineProvider><div data-cell>{entityCellContent(column, value, (key) => key)}</div></MantineProvider>);
    const shown = container.querySelector('[data-cell]')!.textContent;
    if (kind === 'secret') expect(shown).toBe('');
    else expect(shown).toContain(text);
  });
});
