import { describe, expect, it } from 'vitest';
import { crudDialogReducer, initialCrudDialogState, isReadOnlyOperation } from '../../../runtime/core/crud-dialog-state.ts';
import { prepareRecord } from '../../../runtime/crud/prepare-record.ts';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import { entities } from '../../../src/generated/entities.ts';

const model: ClientEntityModel = {
  ...entities.bottrace,
  fields: [
    ...entities.bottrace.fields,
    { ...entities.bottrace.fields[0], name: 'when', type: 'date', ref: null },
    { ...entities.bottrace.fields[0], name: 'tags', type: 'array.ref', ref: { entity: 'bot', display: 'name', populate: [], clearable: true, onDelete: 'restrict' } },
  ],
};
const row = { _id: 'r1', status: { _id: 's1', name: 'Open' }, bot: 'b1', when: '2024-01-02T03:04:05.000Z', chatId: 'c' };

const open = (operation: 'view' | 'create' | 'edit' | 'delete') => crudDialogReducer(initialCrudDialogState, { type: 'open', operation, row, model });

// Submitting, cancelling and the mutations behind them: crud-controllers.test.tsx (dom project).
describe('CRUD dialog state (docs/product-rules.md#states)', () => {
  it('create opens blank; view/edit/delete open a copy with dates as Date, refs as ids, array refs as id lists', () => {
    expect(open('create').record).toEqual({});
    const edit = open('edit');
    expect(edit.record).not.toBe(row);
    expect(edit.record?.when).toBeInstanceOf(Date);
    expect((edit.record?.when as Date).toISOString()).toBe(row.when);
    expect(edit.record?.status).toBe('s1');
    expect(edit.record?.bot).toBe('b1');
    expect(edit.record?.tags).toEqual([]);
    expect(row.status).toEqual({ _id: 's1', name: 'Open' });
    expect(prepareRecord(model, { tags: [{ _id: 'x' }, 'y'] }).tags).toEqual(['x', 'y']);
  });

  it('view and delete are read-only', () => {
    expect(isReadOnlyOperation('view')).toBe(true);
    expect(isReadOnlyOperation('delete')).toBe(true);
    expect(isReadOnlyOperation('edit')).toBe(false);
  });
});
