import { describe, expect, it, vi } from 'vitest';
import { crudDialogReducer, initialCrudDialogState, isReadOnlyOperation, type CrudDialogAction, type CrudDialogState } from '../../../runtime/crud/crud-dialog-state.ts';
import { cancelCrudDialog, submitCrudDialog } from '../../../runtime/crud/crud-controller.ts';
import { prepareRecord } from '../../../runtime/crud/prepare-record.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import { entities } from '../../../src/generated/entities.ts';
import type { AnyEntityProvider } from '../../../runtime/context/runtime-context.tsx';

const model: ClientEntityModel = {
  ...entities.bottrace,
  fields: [
    ...entities.bottrace.fields,
    { ...entities.bottrace.fields[0], name: 'when', type: 'date', ref: null },
    { ...entities.bottrace.fields[0], name: 'tags', type: 'array.ref', ref: { entity: 'bot', display: 'name', populate: [], clearable: true, onDelete: 'restrict' } },
  ],
};
const row = { _id: 'r1', status: { _id: 's1', name: 'Open' }, bot: 'b1', when: '2024-01-02T03:04:05.000Z', chatId: 'c' };

function harness(state: CrudDialogState, provider: Record<string, ReturnType<typeof vi.fn>>, validate = () => true) {
  let current = state;
  const actions: CrudDialogAction[] = [];
  const deps = {
    provider: provider as unknown as AnyEntityProvider,
    dispatch: (action: CrudDialogAction) => {
      actions.push(action);
      current = crudDialogReducer(current, action);
    },
    reload: vi.fn(),
    notifySuccess: vi.fn(),
    onResult: vi.fn(),
    validate: vi.fn(validate),
    log: { error: vi.fn(), warn: vi.fn() },
  };
  return { deps, actions, get state() { return current; } };
}

const open = (operation: 'view' | 'create' | 'edit' | 'delete') => crudDialogReducer(initialCrudDialogState, { type: 'open', operation, row, model });

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

  it('invalid create logs "Invalid form" and sends nothing', async () => {
    const provider = { create: vi.fn() };
    const h = harness(open('create'), provider, () => false);
    await expect(submitCrudDialog(h.state, { chatId: '' }, h.deps)).resolves.toBeNull();
    expect(h.deps.log.error).toHaveBeenCalledWith('Invalid form');
    expect(provider.create).not.toHaveBeenCalled();
    expect(h.state.operation).toBe('create');
  });

  it('create success: calls provider, reloads, closes, notifies, reports created', async () => {
    let loadingDuringCall = false;
    const h = harness(open('create'), {
      create: vi.fn(async () => {
        loadingDuringCall = h.state.loading;
        return { _id: 'n' };
      }),
    });
    const result = await submitCrudDialog(h.state, { chatId: 'x', _id: 'ignored', createdAt: 'x' }, h.deps);
    expect(result).toBe('created');
    expect(loadingDuringCall).toBe(true);
    expect(h.deps.provider.create).toHaveBeenCalledWith({ data: { chatId: 'x' } });
    expect(h.deps.reload).toHaveBeenCalled();
    expect(h.deps.notifySuccess).toHaveBeenCalledWith('crud.success.created');
    expect(h.deps.onResult).toHaveBeenCalledWith('created');
    expect(h.state).toMatchObject({ operation: null, loading: false, result: 'created' });
  });

  it('edit updates by id and delete skips validation', async () => {
    const edit = harness(open('edit'), { update: vi.fn(async () => ({})) });
    await submitCrudDialog(edit.state, { chatId: 'y' }, edit.deps);
    expect(edit.deps.provider.update).toHaveBeenCalledWith({ id: 'r1', data: { chatId: 'y' } });
    expect(edit.deps.notifySuccess).toHaveBeenCalledWith('crud.success.updated');

    const del = harness(open('delete'), { delete: vi.fn(async () => true) }, () => false);
    await expect(submitCrudDialog(del.state, {}, del.deps)).resolves.toBe('deleted');
    expect(del.deps.validate).not.toHaveBeenCalled();
    expect(del.deps.provider.delete).toHaveBeenCalledWith({ id: 'r1' });
    expect(del.deps.notifySuccess).toHaveBeenCalledWith('crud.success.deleted');
  });

  it('view submit just closes as viewed', async () => {
    const h = harness(open('view'), {});
    await expect(submitCrudDialog(h.state, {}, h.deps)).resolves.toBe('viewed');
    expect(h.state.operation).toBeNull();
    expect(h.deps.onResult).toHaveBeenCalledWith('viewed');
  });

  it('failure keeps the dialog open with the server message and per-field errors', async () => {
    const h = harness(open('edit'), {
      update: vi.fn(async () => {
        throw new ApiError('error.validation', 'validation', 400, { status: ['validation.required'] });
      }),
    });
    await expect(submitCrudDialog(h.state, {}, h.deps)).resolves.toBeNull();
    expect(h.state).toMatchObject({ operation: 'edit', loading: false, error: 'error.validation', fieldErrors: { status: ['validation.required'] } });
    expect(h.deps.reload).not.toHaveBeenCalled();
  });

  it('falls back to the operation message when the server gives none', async () => {
    for (const [operation, method, key] of [
      ['create', 'create', 'crud.failure.create'],
      ['edit', 'update', 'crud.failure.update'],
      ['delete', 'delete', 'crud.failure.delete'],
    ] as const) {
      const h = harness(open(operation), { [method]: vi.fn(async () => { throw new TypeError('x'); }) });
      await submitCrudDialog(h.state, {}, h.deps);
      expect(h.state.error).toBe(key);
    }
    const h = harness(open('create'), { create: vi.fn(async () => { throw new ApiError('error.client', 'client', 400, {}); }) });
    await submitCrudDialog(h.state, {}, h.deps);
    expect(h.state.error).toBe('crud.failure.create');
    const withMessage = harness(open('create'), { create: vi.fn(async () => { throw new ApiError('validation.unique', 'client', 409, {}); }) });
    await submitCrudDialog(withMessage.state, {}, withMessage.deps);
    expect(withMessage.state.error).toBe('validation.unique');
  });

  it('cancel closes, clears errors and emits canceled', () => {
    let state = crudDialogReducer(open('edit'), { type: 'submitFailed', error: 'e', fieldErrors: { a: ['b'] } });
    const onResult = vi.fn();
    cancelCrudDialog({ dispatch: (action) => (state = crudDialogReducer(state, action)), onResult });
    expect(state).toMatchObject({ operation: null, error: null, fieldErrors: {}, result: 'canceled' });
    expect(onResult).toHaveBeenCalledWith('canceled');
  });
});
