import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AnyEntityClient } from '../../../runtime/context/runtime-context.tsx';
import { useCrudDialogController } from '../../../runtime/core/use-crud-dialog-controller.ts';
import { useEditController } from '../../../runtime/core/use-edit-controller.ts';
import { useListController } from '../../../runtime/core/use-list-controller.ts';
import { useShowController } from '../../../runtime/core/use-show-controller.ts';
import { entityListParams } from '../../../runtime/core/entity-list-query.ts';
import { entityQueryKeys } from '../../../runtime/query/entity-query-keys.ts';
import type { Paginated } from '../../../runtime/clients/queries.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import { entities } from '../../../src/generated/entities.ts';

/**
 * The headless controllers of runtime/core (docs/architecture.md, "The client"), driven without
 * any UI: only React and a QueryClient, as an app with another component library would use them.
 */
const model: ClientEntityModel = entities.bottracestatus;
const keys = entityQueryKeys(model.name);
const row = { _id: 'r1', name: 'Open', description: 'd' };
const page: Paginated<Record<string, unknown>> = { items: [row, { _id: 'r2', name: 'Closed' }], total: 2 };
const listKey = keys.list(entityListParams(model));

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup(entityClient: Partial<Record<keyof AnyEntityClient, ReturnType<typeof vi.fn>>>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  // A list page the table would show, so invalidation and optimistic edits have something to act on.
  queryClient.setQueryData(listKey, page);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const deps = { notifySuccess: vi.fn(), onResult: vi.fn(), log: { error: vi.fn() } };
  const hook = renderHook(() => useCrudDialogController({ model, entityClient: entityClient as unknown as AnyEntityClient, ...deps }), { wrapper });
  const listInvalidated = () => queryClient.getQueryState(listKey)?.isInvalidated ?? false;
  const cachedList = () => queryClient.getQueryData<Paginated<Record<string, unknown>>>(listKey);
  return { queryClient, wrapper, deps, hook, listInvalidated, cachedList, state: () => hook.result.current.state };
}

async function openAndSubmit(h: ReturnType<typeof setup>, operation: 'view' | 'create' | 'edit' | 'delete', data: Record<string, unknown> = {}, valid = true) {
  act(() => h.hook.result.current.open(operation, row));
  let result: unknown;
  await act(async () => {
    result = await h.hook.result.current.submit(data, () => valid);
  });
  return result;
}

describe('CRUD dialog controller (docs/product-rules.md#states)', () => {
  it('an invalid create or edit logs "Invalid form" and sends nothing', async () => {
    for (const operation of ['create', 'edit'] as const) {
      const entityClient = { create: vi.fn(), update: vi.fn() };
      const h = setup(entityClient);
      await expect(openAndSubmit(h, operation, { name: '' }, false)).resolves.toBeNull();
      expect(h.deps.log.error).toHaveBeenCalledWith('Invalid form');
      expect(entityClient.create).not.toHaveBeenCalled();
      expect(entityClient.update).not.toHaveBeenCalled();
      expect(h.state().operation).toBe(operation);
    }
  });

  it('create runs the mutation without system fields, shows loading meanwhile, invalidates the lists, closes and notifies', async () => {
    const answer = deferred<Record<string, unknown>>();
    const entityClient = { create: vi.fn(() => answer.promise) };
    const h = setup(entityClient);
    act(() => h.hook.result.current.open('create'));
    let submitted!: Promise<unknown>;
    act(() => {
      submitted = h.hook.result.current.submit({ name: 'x', _id: 'ignored', createdAt: 'x', updatedAt: 'y' }, () => true);
    });
    await waitFor(() => expect(h.state().loading).toBe(true));
    expect(h.listInvalidated()).toBe(false);
    await act(async () => {
      answer.resolve({ _id: 'n', name: 'x' });
      await submitted;
    });
    expect(entityClient.create).toHaveBeenCalledWith({ data: { name: 'x' } });
    expect(h.listInvalidated()).toBe(true);
    expect(h.deps.notifySuccess).toHaveBeenCalledWith('crud.success.created');
    expect(h.deps.onResult).toHaveBeenCalledWith('created');
    expect(h.state()).toMatchObject({ operation: null, loading: false, result: 'created' });
  });

  it('edit updates by id; delete skips validation and deletes by id; both invalidate', async () => {
    const edit = setup({ update: vi.fn(async () => ({})) });
    await expect(openAndSubmit(edit, 'edit', { name: 'y', _id: 'r1' })).resolves.toBe('updated');
    expect(edit.hook.result.current.state.result).toBe('updated');
    expect(vi.mocked(edit.deps.notifySuccess)).toHaveBeenCalledWith('crud.success.updated');
    expect(edit.listInvalidated()).toBe(true);

    const entityClient = { delete: vi.fn(async () => true) };
    const del = setup(entityClient);
    await expect(openAndSubmit(del, 'delete', {}, false)).resolves.toBe('deleted');
    expect(entityClient.delete).toHaveBeenCalledWith({ id: 'r1' });
    expect(del.deps.notifySuccess).toHaveBeenCalledWith('crud.success.deleted');
    expect(del.listInvalidated()).toBe(true);
  });

  it('submitting a view just closes it as viewed, calling nothing', async () => {
    const h = setup({});
    await expect(openAndSubmit(h, 'view')).resolves.toBe('viewed');
    expect(h.state().operation).toBeNull();
    expect(h.deps.onResult).toHaveBeenCalledWith('viewed');
    expect(h.listInvalidated()).toBe(false);
  });

  it('a refused create or edit keeps the dialog open with the server message and per-field errors, and invalidates nothing', async () => {
    for (const [operation, method] of [['create', 'create'], ['edit', 'update']] as const) {
      const h = setup({ [method]: vi.fn(async () => { throw new ApiError('error.validation', 'validation', 400, { name: ['validation.required'] }); }) });
      await expect(openAndSubmit(h, operation)).resolves.toBeNull();
      expect(h.state()).toMatchObject({ operation, loading: false, error: 'error.validation', fieldErrors: { name: ['validation.required'] } });
      expect(h.listInvalidated()).toBe(false);
      expect(h.deps.notifySuccess).not.toHaveBeenCalled();
    }
  });

  it("falls back to the operation's message when the server gives none", async () => {
    for (const [operation, method, key] of [
      ['create', 'create', 'crud.failure.create'],
      ['edit', 'update', 'crud.failure.update'],
      ['delete', 'delete', 'crud.failure.delete'],
    ] as const) {
      for (const error of [new TypeError('Failed to fetch'), new ApiError('error.client', 'client', 400, {}), new ApiError('error.unknown', 'unknown', null, {})]) {
        const h = setup({ [method]: vi.fn(async () => { throw error; }) });
        await openAndSubmit(h, operation);
        expect(h.state().error).toBe(key);
      }
    }
    const withMessage = setup({ create: vi.fn(async () => { throw new ApiError('validation.unique', 'client', 409, {}, null, { field: 'name' }); }) });
    await openAndSubmit(withMessage, 'create');
    expect(withMessage.state()).toMatchObject({ error: 'validation.unique', errorParams: { field: 'name' } });
  });

  it('cancel closes, clears errors and reports canceled', async () => {
    const h = setup({ update: vi.fn(async () => { throw new ApiError('error.validation', 'validation', 400, { a: ['b'] }); }) });
    await openAndSubmit(h, 'edit');
    act(() => h.hook.result.current.cancel());
    expect(h.state()).toMatchObject({ operation: null, error: null, fieldErrors: {}, result: 'canceled' });
    expect(h.deps.onResult).toHaveBeenCalledWith('canceled');
  });
});

describe('optimistic writes with rollback', () => {
  it('delete takes the row out of every cached list page before the server answers', async () => {
    const answer = deferred<boolean>();
    const h = setup({ delete: vi.fn(() => answer.promise) });
    act(() => h.hook.result.current.open('delete', row));
    let submitted!: Promise<unknown>;
    act(() => {
      submitted = h.hook.result.current.submit({}, () => true);
    });
    await waitFor(() => expect(h.cachedList()?.items.map((item) => item._id)).toEqual(['r2']));
    expect(h.cachedList()?.total).toBe(1);
    await act(async () => {
      answer.resolve(true);
      await submitted;
    });
    expect(h.state().result).toBe('deleted');
  });

  it('a refused delete puts the row back where it was and shows why, whatever the refusal', async () => {
    const refusals = [
      new ApiError('error.deletionFailed', 'client', 409, {}, null, { count: 3 }),
      new ApiError('error.forbidden', 'client', 403, {}),
      new TypeError('Failed to fetch'),
    ];
    for (const refusal of refusals) {
      const answer = deferred<boolean>();
      const h = setup({ delete: vi.fn(() => answer.promise) });
      act(() => h.hook.result.current.open('delete', row));
      let submitted!: Promise<unknown>;
      act(() => {
        submitted = h.hook.result.current.submit({}, () => true);
      });
      await waitFor(() => expect(h.cachedList()?.total).toBe(1));
      await act(async () => {
        answer.reject(refusal);
        await submitted;
      });
      expect(h.cachedList()).toEqual(page);
      expect(h.state()).toMatchObject({ operation: 'delete', loading: false, error: refusal instanceof ApiError ? refusal.message : 'crud.failure.delete' });
    }
  });

  it('an optimistic edit (an inline toggle) shows the change at once and rolls it back on refusal', async () => {
    for (const outcome of ['accepted', 'refused'] as const) {
      const answer = deferred<Record<string, unknown>>();
      const update = vi.fn(() => answer.promise);
      const h = setup({ update });
      const toggle = renderHook(() => useEditController({ entity: model.name, entityClient: { update } as unknown as AnyEntityClient, optimistic: true }), { wrapper: h.wrapper });
      act(() => toggle.result.current.mutate({ id: 'r2', data: { name: 'Reopened', updatedAt: 'x' } }));
      await waitFor(() => expect(h.cachedList()?.items[1]).toEqual({ _id: 'r2', name: 'Reopened' }));
      expect(update).toHaveBeenCalledWith({ id: 'r2', data: { name: 'Reopened' } });
      await act(async () => {
        if (outcome === 'accepted') answer.resolve({ _id: 'r2', name: 'Reopened' });
        else answer.reject(new ApiError('error.forbidden', 'client', 403, {}));
      });
      await waitFor(() => expect(toggle.result.current.isIdle).toBe(false));
      await waitFor(() => expect(toggle.result.current.isPending).toBe(false));
      expect(h.cachedList()?.items[1]).toEqual(outcome === 'accepted' ? { _id: 'r2', name: 'Reopened' } : { _id: 'r2', name: 'Closed' });
      // Either way the lists are fetched again: the server's answer replaces the guess.
      expect(h.listInvalidated()).toBe(true);
    }
  });
});

describe('list and show controllers', () => {
  function wrapperWith(queryClient: QueryClient) {
    return ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  }

  it('the list fetches the page its state describes, follows its changes, and fetches nothing when not allowed', async () => {
    const paginate = vi.fn(async ({ page: number = 1 }: { page?: number }) => ({ items: [{ _id: `p${number}` }], total: 35 }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const list = renderHook(() => useListController({ model, entityClient: { paginate } as unknown as AnyEntityClient, initialFilterValues: () => ({ name: 'Open' }) }), { wrapper: wrapperWith(queryClient) });
    await waitFor(() => expect(list.result.current.rows).toEqual([{ _id: 'p1' }]));
    expect(paginate).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, limit: 10, filters: expect.arrayContaining([expect.objectContaining({ field: 'name', value: 'Open' })]) }));
    act(() => list.result.current.dispatchTable({ type: 'setPage', page: 3 }));
    await waitFor(() => expect(list.result.current.rows).toEqual([{ _id: 'p3' }]));
    expect(list.result.current.total).toBe(35);

    const denied = vi.fn();
    renderHook(() => useListController({ model, entityClient: { paginate: denied } as unknown as AnyEntityClient, enabled: false }), { wrapper: wrapperWith(new QueryClient()) });
    expect(denied).not.toHaveBeenCalled();
  });

  it('a page that no longer exists gives way to the last one that does', async () => {
    let total = 35;
    const paginate = vi.fn(async ({ page: number = 1 }: { page?: number }) => ({ items: [{ _id: `p${number}` }], total }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const list = renderHook(() => useListController({ model, entityClient: { paginate } as unknown as AnyEntityClient }), { wrapper: wrapperWith(queryClient) });
    act(() => list.result.current.dispatchTable({ type: 'setPage', page: 4 }));
    await waitFor(() => expect(list.result.current.rows).toEqual([{ _id: 'p4' }]));
    total = 25;
    act(() => list.result.current.reload());
    await waitFor(() => expect(list.result.current.table.page).toBe(3));
    await waitFor(() => expect(list.result.current.rows).toEqual([{ _id: 'p3' }]));
  });

  it('show fetches one record by id under its detail key, and nothing without an id', async () => {
    const findById = vi.fn(async ({ id }: { id: string }) => ({ _id: id, name: 'Open' }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const show = renderHook(({ id }: { id: string | null }) => useShowController({ entity: model.name, entityClient: { findById } as unknown as AnyEntityClient, id }), {
      wrapper: wrapperWith(queryClient),
      initialProps: { id: null as string | null },
    });
    expect(show.result.current.fetchStatus).toBe('idle');
    expect(findById).not.toHaveBeenCalled();
    show.rerender({ id: 'r1' });
    await waitFor(() => expect(show.result.current.data).toEqual({ _id: 'r1', name: 'Open' }));
    expect(queryClient.getQueryData(keys.detail('r1'))).toEqual({ _id: 'r1', name: 'Open' });
  });
});
