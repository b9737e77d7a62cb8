import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, activeFilters, effectiveSort, initialTableState, nextSort, tableReducer } from '../../../runtime/table/table-state.ts';

describe('table state (docs/product-rules.md#states Table)', () => {
  it('defaults to page 1, size 10, options 5/10/20/50', () => {
    expect(initialTableState()).toMatchObject({ page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: null });
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect([...PAGE_SIZE_OPTIONS]).toEqual([5, 10, 20, 50]);
  });

  it('single sort cycles asc -> desc -> off, and a new column starts at asc', () => {
    let sort = nextSort(null, 'name');
    expect(sort).toEqual({ field: 'name', order: 'asc' });
    sort = nextSort(sort, 'name');
    expect(sort).toEqual({ field: 'name', order: 'desc' });
    expect(nextSort(sort, 'name')).toBeNull();
    expect(nextSort(sort, 'createdAt')).toEqual({ field: 'createdAt', order: 'asc' });
    const state = tableReducer(tableReducer(initialTableState(), { type: 'toggleSort', field: 'a' }), { type: 'toggleSort', field: 'b' });
    expect(state.sort).toEqual({ field: 'b', order: 'asc' });
  });

  it('no chosen sort means the manifest default sort, never id order', () => {
    const byUpdate = { field: 'updatedAt', order: 'desc' } as const;
    expect(effectiveSort(null, byUpdate)).toEqual(byUpdate);
    expect(effectiveSort({ field: 'name', order: 'asc' }, byUpdate)).toEqual({ field: 'name', order: 'asc' });
  });

  it('changing page size or search resets to page 1; same value keeps the page', () => {
    const onPage3 = tableReducer(initialTableState(), { type: 'setPage', page: 3 });
    expect(onPage3.page).toBe(3);
    expect(tableReducer(onPage3, { type: 'setPageSize', pageSize: 20 })).toMatchObject({ page: 1, pageSize: 20 });
    expect(tableReducer(onPage3, { type: 'setSearch', search: 'bot' })).toMatchObject({ page: 1, search: 'bot' });
    expect(tableReducer(onPage3, { type: 'setPageSize', pageSize: 10 }).page).toBe(3);
    expect(tableReducer(onPage3, { type: 'setSearch', search: '' }).page).toBe(3);
    expect(tableReducer(onPage3, { type: 'setFilter', field: 'status', value: 'x' }).page).toBe(1);
  });

  it('selection strategies: single keeps one, page toggles the page, all flags everything', () => {
    let state = tableReducer(initialTableState(), { type: 'toggleRow', id: 'a', strategy: 'single' });
    state = tableReducer(state, { type: 'toggleRow', id: 'b', strategy: 'single' });
    expect(state.selected).toEqual(['b']);
    state = tableReducer(initialTableState(), { type: 'toggleRow', id: 'a', strategy: 'page' });
    state = tableReducer(state, { type: 'toggleRow', id: 'b', strategy: 'page' });
    expect(state.selected).toEqual(['a', 'b']);
    state = tableReducer(state, { type: 'togglePage', ids: ['a', 'b', 'c'] });
    expect(state.selected).toEqual(['a', 'b', 'c']);
    state = tableReducer(state, { type: 'togglePage', ids: ['a', 'b', 'c'] });
    expect(state.selected).toEqual([]);
    state = tableReducer(state, { type: 'toggleAll' });
    expect(state.allSelected).toBe(true);
    expect(tableReducer(state, { type: 'clearSelection' })).toMatchObject({ allSelected: false, selected: [] });
  });

  it('activeFilters pairs model filters with their values', () => {
    expect(activeFilters([{ field: 'status', operator: 'eq' }], { status: 's1' })).toEqual([{ field: 'status', operator: 'eq', value: 's1' }]);
  });

  it('activeFilters sends a range as its gte and lte bounds, whatever the one operator', () => {
    const from = new Date('2026-01-01T00:00:00.000Z');
    const to = new Date('2026-02-01T00:00:00.000Z');
    expect(activeFilters([{ field: 'createdAt', operator: 'eq' }], { createdAt: { gte: from, lte: to } })).toEqual([
      { field: 'createdAt', operator: 'gte', value: from },
      { field: 'createdAt', operator: 'lte', value: to },
    ]);
    // A missing bound is sent empty, which the serializer drops.
    expect(activeFilters([{ field: 'n', operator: 'gte' }], { n: { lte: 3 } })).toEqual([
      { field: 'n', operator: 'gte', value: undefined },
      { field: 'n', operator: 'lte', value: 3 },
    ]);
  });
});
