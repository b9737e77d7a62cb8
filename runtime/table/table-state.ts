import type { FilterInput } from '../clients/queries.ts';
import { isFilterRange } from '../crud/filter-range.ts';
import type { SortOrder } from '../model/client-entity-model.ts';

/** docs/product-rules.md#constants: CRUD UI default page size 10, options 5, 10, 20, 50. */
export const PAGE_SIZE_OPTIONS = [5, 10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type SelectionStrategy = 'single' | 'page' | 'all';

export interface TableSort {
  field: string;
  order: SortOrder;
}

/** Server-side list state of one EntityTable; `page` is 1-based like the API. */
export interface TableState {
  page: number;
  pageSize: number;
  sort: TableSort | null;
  search: string;
  /** Filter values by field name. */
  filterValues: Record<string, unknown>;
  /** Selected row ids; `allSelected` means every row matching the query (strategy "all"). */
  selected: string[];
  allSelected: boolean;
}

export type TableAction =
  | { type: 'setPage'; page: number }
  | { type: 'setPageSize'; pageSize: number }
  | { type: 'toggleSort'; field: string }
  | { type: 'setSearch'; search: string }
  | { type: 'setFilter'; field: string; value: unknown }
  /** `pageIds`: the rows shown, so unticking one row of "all matching" keeps the rest of the page. */
  | { type: 'toggleRow'; id: string; strategy: SelectionStrategy; pageIds?: string[] }
  | { type: 'togglePage'; ids: string[] }
  | { type: 'toggleAll' }
  | { type: 'clearSelection' };

export function initialTableState(overrides: Partial<TableState> = {}): TableState {
  return { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: null, search: '', filterValues: {}, selected: [], allSelected: false, ...overrides };
}

/**
 * The order the list is shown in: the user's choice, else the manifest's `table.defaultSort`
 * (traces newest first, conversations by last update), never the storage or id order.
 */
export function effectiveSort(chosen: TableSort | null, defaultSort: TableSort): TableSort {
  return chosen ?? defaultSort;
}

/** Single sort only, cycling asc -> desc -> off (docs/product-rules.md#screens, #states); off shows the default sort. */
export function nextSort(current: TableSort | null, field: string): TableSort | null {
  if (!current || current.field !== field) return { field, order: 'asc' };
  return current.order === 'asc' ? { field, order: 'desc' } : null;
}

export function tableReducer(state: TableState, action: TableAction): TableState {
  switch (action.type) {
    case 'setPage':
      return { ...state, page: Math.max(1, action.page) };
    case 'setPageSize':
      // docs/product-rules.md#states: changing page size resets to page 1.
      return action.pageSize === state.pageSize ? state : { ...state, pageSize: action.pageSize, page: 1 };
    case 'toggleSort':
      return { ...state, sort: nextSort(state.sort, action.field) };
    case 'setSearch':
      // docs/product-rules.md#states: changing the search resets to page 1. The selection goes too: a bulk action acts
      // on rows the user can see, never on rows chosen under another query.
      return action.search === state.search ? state : { ...state, search: action.search, page: 1, selected: [], allSelected: false };
    case 'setFilter':
      // A new filter narrows the result, so page N may no longer exist (and the selection goes, as for a search).
      return { ...state, filterValues: { ...state.filterValues, [action.field]: action.value }, page: 1, selected: [], allSelected: false };
    case 'toggleRow': {
      if (state.allSelected && action.strategy !== 'single') {
        return { ...state, allSelected: false, selected: (action.pageIds ?? []).filter((id) => id !== action.id) };
      }
      const isSelected = state.selected.includes(action.id);
      if (action.strategy === 'single') return { ...state, selected: isSelected ? [] : [action.id], allSelected: false };
      return {
        ...state,
        allSelected: false,
        selected: isSelected ? state.selected.filter((id) => id !== action.id) : [...state.selected, action.id],
      };
    }
    case 'togglePage': {
      const allOnPage = action.ids.length > 0 && action.ids.every((id) => state.selected.includes(id));
      return {
        ...state,
        allSelected: false,
        selected: allOnPage ? state.selected.filter((id) => !action.ids.includes(id)) : [...new Set([...state.selected, ...action.ids])],
      };
    }
    case 'toggleAll':
      return { ...state, allSelected: !state.allSelected, selected: [] };
    case 'clearSelection':
      return { ...state, selected: [], allSelected: false };
    default:
      return state;
  }
}

/** What a bulk action acts on: the chosen rows, or every row matching the list's query. */
export type TableSelection = { kind: 'ids'; ids: string[] } | { kind: 'matching'; count: number } | null;

export function tableSelection(state: Pick<TableState, 'selected' | 'allSelected'>, total: number): TableSelection {
  if (state.allSelected) return total > 0 ? { kind: 'matching', count: total } : null;
  return state.selected.length > 0 ? { kind: 'ids', ids: state.selected } : null;
}

export function selectionCount(selection: TableSelection): number {
  return selection === null ? 0 : selection.kind === 'ids' ? selection.ids.length : selection.count;
}

/**
 * The filters to send: one per model filter with a value (serialisation drops empty ones), a
 * from / to range as its gte and lte bounds.
 */
export function activeFilters(
  filters: readonly { field: string; operator: FilterInput['operator'] }[],
  values: Record<string, unknown>,
): FilterInput[] {
  return filters.flatMap((filter) => {
    const value = values[filter.field];
    if (!isFilterRange(value)) return [{ field: filter.field, operator: filter.operator, value }];
    return [
      { field: filter.field, operator: 'gte' as const, value: value.gte },
      { field: filter.field, operator: 'lte' as const, value: value.lte },
    ];
  });
}
