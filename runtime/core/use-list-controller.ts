import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import type { EntityRecord } from '../crud/prepare-record.ts';
import { pageInRange } from '../crud/page-in-range.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { initialTableState, tableReducer, type TableState } from '../table/table-state.ts';
import { entityListParams, entityListQuery } from './entity-list-query.ts';

export interface ListControllerOptions {
  model: ClientEntityModel;
  entityClient: AnyEntityClient;
  /** False when the caller may not list (no view permission): nothing is fetched. */
  enabled?: boolean;
  /** The filter values the list starts with (e.g. read from the address), asked once. */
  initialFilterValues?: () => TableState['filterValues'];
}

/**
 * The list a CRUD screen shows (ra-core's useListController): page, size, sort, search, filters
 * and selection as one reducer state, the page query built from it, and `reload`. No UI: the
 * Mantine table renders `rows` and dispatches the user's changes.
 */
export function useListController({ model, entityClient, enabled = true, initialFilterValues }: ListControllerOptions) {
  const queryClient = useQueryClient();
  const keys = useMemo(() => entityQueryKeys(model.name), [model.name]);
  const [table, dispatchTable] = useReducer(tableReducer, undefined, () => initialTableState({ filterValues: initialFilterValues?.() ?? {} }));
  const params = useMemo(
    () => entityListParams(model, table),
    // Selection lives in the same state but is no part of the request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model, table.page, table.pageSize, table.sort, table.search, table.filterValues],
  );
  const list = useQuery({ ...entityListQuery(model, entityClient, params), enabled });
  // docs/product-rules.md#errors: pagination failures are only logged.
  useEffect(() => {
    if (list.error) console.error(list.error);
  }, [list.error]);
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: keys.all }), [queryClient, keys]);
  // A page that no longer exists (its only row deleted) gives way to the last one that does.
  const total = list.data?.total;
  useEffect(() => {
    const fitting = pageInRange(table.page, table.pageSize, total);
    if (fitting !== table.page) dispatchTable({ type: 'setPage', page: fitting });
  }, [total, table.page, table.pageSize]);
  return {
    table,
    dispatchTable,
    /** The request the page sends (also what an export or a bulk delete of "all matching" uses). */
    params,
    rows: (list.data?.items as EntityRecord[] | undefined) ?? EMPTY_ROWS,
    total: total ?? 0,
    fetching: list.isFetching,
    error: list.error,
    reload,
  };
}

const EMPTY_ROWS: EntityRecord[] = [];
