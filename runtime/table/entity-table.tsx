import { memo, useCallback, useMemo, type ReactNode } from 'react';
import { Anchor, Button, Checkbox, Grid, Group, Pagination, Paper, Popover, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconColumns3, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  createColumnHelper, flexRender, rowPaginationFeature, rowSelectionFeature, rowSortingFeature, tableFeatures, useTable,
  type PaginationState, type Row, type RowSelectionState, type SortingState, type Updater,
} from '@tanstack/react-table';
import { useRuntime } from '../context/runtime-context.tsx';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { entityOverrides } from '../overrides/override-registry.ts';
import type { Can } from '../permissions/permissions-context.tsx';
import { refId, type EntityRecord } from '../crud/prepare-record.ts';
import { entityCellContent } from './entity-cell-content.tsx';
import { FilterInput } from './filter-input.tsx';
import { PAGE_SIZE_OPTIONS, effectiveSort, selectionCount, tableSelection, type SelectionStrategy, type TableAction, type TableSelection, type TableState } from './table-state.ts';
import { useHiddenColumns } from './column-choice.ts';
import { visibleColumns, visibleFilters } from './table-columns.ts';
import { useDelegatedTooltip } from './use-delegated-tooltip.tsx';

const features = tableFeatures({ rowPaginationFeature, rowSortingFeature, rowSelectionFeature });
const helper = createColumnHelper<typeof features, EntityRecord>();
const PAGE_SIZE_DATA = PAGE_SIZE_OPTIONS.map(String);
/** docs/product-rules.md#constants filter column widths. */
const FILTER_SPAN = { base: 12, xs: 12, sm: 6, md: 6, lg: 4, xl: 3 } as const;

export interface EntityTableProps {
  model: ClientEntityModel;
  can: Can;
  state: TableState;
  dispatch: (action: TableAction) => void;
  /** What the user typed; the list query uses its debounced value. */
  searchText: string;
  onSearchTextChange: (text: string) => void;
  rows: EntityRecord[];
  total: number;
  loading: boolean;
  selection?: SelectionStrategy | null;
  /** Renders the per-row action buttons; the column is omitted when absent. */
  renderRowActions?: (row: EntityRecord) => ReactNode;
  /** The actions on the selected rows (delete, export), shown in the selection bar while rows are selected. */
  renderBulkActions?: (selection: NonNullable<TableSelection>) => ReactNode;
}

function updated<T>(updater: Updater<T>, current: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater;
}

/**
 * The server-side list of docs/product-rules.md#screens: TanStack Table (v9) owns the row/column model in manual mode,
 * the headless table reducer owns paging, sorting, search and selection, Mantine draws it.
 */
export function EntityTable(props: EntityTableProps) {
  const { model, can, state, dispatch, rows, total, selection, renderRowActions } = props;
  const { t } = useTranslation();
  const allSpecs = useMemo(() => visibleColumns(model, can), [model, can]);
  const columnNames = useMemo(() => allSpecs.map((spec) => spec.name), [allSpecs]);
  // The column chooser: columns a user hid stay hidden on this entity for that user (column-choice.ts).
  const chosen = useHiddenColumns(model.name, columnNames);
  const specs = useMemo(() => allSpecs.filter((spec) => !chosen.hidden.has(spec.name)), [allSpecs, chosen.hidden]);
  const widths = useMemo(() => new Map(specs.map((spec) => [spec.name, spec.field?.column.width ?? undefined])), [specs]);
  const filters = useMemo(() => visibleFilters(model, can), [model, can]);
  // Cells the app draws itself (e.g. a knowledge base's training state), by column name.
  const cells = entityOverrides(useRuntime().overrides, model.name).cells;

  const columns = useMemo(() => {
    const dataColumns = specs.map((spec) =>
      helper.accessor((row) => row[spec.name], {
        id: spec.name,
        header: () => t(spec.label),
        cell: (info) => {
          const Custom = cells?.[spec.name];
          return Custom ? <Custom value={info.getValue()} row={info.row.original} /> : entityCellContent(spec, info.getValue(), t);
        },
        enableSorting: spec.sortable,
      }),
    );
    return renderRowActions
      ? [
          ...dataColumns,
          helper.display({
            id: '__actions',
            header: () => t('crud.actions'),
            cell: (info) => renderRowActions(info.row.original),
          }),
        ]
      : dataColumns;
  }, [specs, renderRowActions, t, cells]);

  // With no sort chosen the list comes in the manifest's default order, and the header says so.
  const shownSort = effectiveSort(state.sort, model.table.defaultSort);
  const sorting: SortingState = useMemo(() => [{ id: shownSort.field, desc: shownSort.order === 'desc' }], [shownSort.field, shownSort.order]);
  const pagination: PaginationState = useMemo(() => ({ pageIndex: state.page - 1, pageSize: state.pageSize }), [state.page, state.pageSize]);
  const rowSelection: RowSelectionState = useMemo(() => Object.fromEntries(state.selected.map((id) => [id, true])), [state.selected]);

  const table = useTable(
    {
      features,
      columns,
      data: rows,
      getRowId: (row: EntityRecord, index: number) => refId(row) ?? String(index),
      manualPagination: true,
      manualSorting: true,
      enableMultiSort: false,
      rowCount: total,
      state: { sorting, pagination, rowSelection },
      onPaginationChange: (updater: Updater<PaginationState>) => {
        const next = updated(updater, pagination);
        if (next.pageSize !== pagination.pageSize) dispatch({ type: 'setPageSize', pageSize: next.pageSize });
        else dispatch({ type: 'setPage', page: next.pageIndex + 1 });
      },
      enableRowSelection: Boolean(selection),
      enableMultiRowSelection: selection !== 'single',
    },
    // The page re-renders from its own reducer; subscribing to table state would render twice.
    () => null,
  );

  const rowTooltip = useDelegatedTooltip();
  const selectRowLabel = t('crud.selectRow');

  const pageCount = Math.max(1, Math.ceil(total / state.pageSize));
  const pageIds = useMemo(() => rows.map((row, index) => refId(row) ?? String(index)), [rows]);
  const toggleRow = useCallback((id: string) => selection && dispatch({ type: 'toggleRow', id, strategy: selection, pageIds }), [dispatch, selection, pageIds]);
  const allOnPage = state.allSelected || (pageIds.length > 0 && pageIds.every((id) => state.selected.includes(id)));
  const someOnPage = !allOnPage && pageIds.some((id) => state.selected.includes(id));
  const chosenRows = tableSelection(state, total);

  return (
    <div>
      <Grid mb="sm" align="flex-end">
        <Grid.Col span={FILTER_SPAN}>
          <TextInput
            aria-label={t('crud.search')}
            placeholder={t('crud.search')}
            leftSection={<IconSearch size={16} />}
            value={props.searchText}
            onChange={(event) => props.onSearchTextChange(event.currentTarget.value)}
          />
        </Grid.Col>
        {filters.map(({ filter, field }) => (
          <Grid.Col key={filter.field} span={FILTER_SPAN}>
            <FilterInput filter={filter} field={field} value={state.filterValues[filter.field]} onChange={setFilter(dispatch)} />
          </Grid.Col>
        ))}
        <Grid.Col span="content" ml="auto">
          <ColumnChooser columns={allSpecs} hidden={chosen.hidden} onToggle={chosen.toggle} />
        </Grid.Col>
      </Grid>
      {selection && selection !== 'single' && (allOnPage || chosenRows) && (
        <SelectionBar
          selection={chosenRows}
          strategy={selection}
          pageRows={pageIds.length}
          total={total}
          allOnPage={allOnPage}
          dispatch={dispatch}
          actions={chosenRows && props.renderBulkActions ? props.renderBulkActions(chosenRows) : null}
        />
      )}
      {/* The header stays in view while the rows scroll (sticky inside a container as tall as the window allows). */}
      <Table.ScrollContainer minWidth={600} maxHeight="calc(100dvh - 12rem)">
        <Table striped highlightOnHover stickyHeader verticalSpacing="xs" aria-busy={props.loading}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {selection && (
                  <Table.Th w={40}>
                    {selection !== 'single' && (
                      // Gmail's way: the header box takes the page; the bar above offers every matching row.
                      <Checkbox
                        aria-label={t('crud.selectPage')}
                        checked={allOnPage}
                        indeterminate={someOnPage}
                        onChange={() => dispatch(state.allSelected ? { type: 'clearSelection' } : { type: 'togglePage', ids: pageIds })}
                      />
                    )}
                  </Table.Th>
                )}
                {group.headers.map((header) => {
                  const isActions = header.column.id === '__actions';
                  const sorted = header.column.getIsSorted();
                  return (
                    <Table.Th
                      key={header.id}
                      miw={isActions ? model.table.actionColumnWidth : undefined}
                      w={widths.get(header.column.id)}
                      // The column header states the order (ARIA: aria-sort belongs on the header cell, not the button in it).
                      aria-sort={!header.column.getCanSort() ? undefined : sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                    >
                      {header.column.getCanSort() ? (
                        <SortHeader
                          sorted={sorted}
                          byDefault={state.sort === null}
                          label={t('crud.sortBy', { column: t(specs.find((spec) => spec.name === header.column.id)?.label ?? '') })}
                          onClick={() => dispatch({ type: 'toggleSort', field: header.column.id })}
                        >
                          <table.FlexRender header={header} />
                        </SortHeader>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody {...rowTooltip.handlers}>
            {table.getRowModel().rows.map((row) => (
              <EntityRow
                key={row.id}
                row={row}
                columns={columns}
                selectable={Boolean(selection)}
                selected={state.allSelected || state.selected.includes(row.id)}
                selectLabel={selectRowLabel}
                onToggle={toggleRow}
              />
            ))}
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length + (selection ? 1 : 0)}>
                  <Text c="dimmed" ta="center" py="md">
                    {t(props.loading ? 'crud.loading' : 'crud.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rowTooltip.tooltip}
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          {t('crud.total', { count: total })}
          {chosenRows && ` · ${t('crud.selected', { count: selectionCount(chosenRows) })}`}
        </Text>
        <Group gap="sm">
          <Text size="sm">{t('crud.rowsPerPage')}</Text>
          <Select
            aria-label={t('crud.rowsPerPage')}
            w={80}
            data={PAGE_SIZE_DATA}
            value={String(state.pageSize)}
            onChange={(value) => value && table.setPageSize(Number(value))}
            allowDeselect={false}
          />
          <Pagination
            total={pageCount}
            value={state.page}
            onChange={(page) => table.setPageIndex(page - 1)}
            size="sm"
            // The arrows are icons: they need names to be announced (and found) as buttons.
            getControlProps={(control) => ({ 'aria-label': t(`crud.page.${control}`) })}
            getItemProps={(page) => ({ 'aria-label': t('crud.page.number', { page }), 'aria-current': page === state.page ? 'page' : undefined })}
          />
        </Group>
      </Group>
    </div>
  );
}

/**
 * The selection's count above the table, and what it covers. With every row of the page ticked it offers
 * every row matching the query (Gmail's banner); with those chosen, it says so and offers to clear.
 */
function SelectionBar(props: {
  selection: TableSelection;
  strategy: SelectionStrategy;
  pageRows: number;
  total: number;
  allOnPage: boolean;
  dispatch: (action: TableAction) => void;
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const { selection, dispatch } = props;
  const matching = selection?.kind === 'matching';
  const offerAll = props.strategy === 'all' && !matching && props.allOnPage && props.total > props.pageRows;
  return (
    <Paper withBorder p="xs" mb="sm" role="region" aria-label={t('crud.selection.region')} data-testid="selection-bar">
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={600} aria-live="polite">
            {matching
              ? t('crud.selection.allMatching', { count: props.total })
              : offerAll
                ? t('crud.selection.allOnPage', { count: selectionCount(selection) })
                : t('crud.selected', { count: selectionCount(selection) })}
          </Text>
          {offerAll && (
            <Anchor component="button" type="button" size="sm" onClick={() => dispatch({ type: 'toggleAll' })}>
              {t('crud.selection.selectAllMatching', { count: props.total })}
            </Anchor>
          )}
          <Anchor component="button" type="button" size="sm" onClick={() => dispatch({ type: 'clearSelection' })}>
            {t('crud.selection.clear')}
          </Anchor>
        </Group>
        <Group gap="xs">{props.actions}</Group>
      </Group>
    </Paper>
  );
}

/** The column chooser: every column the user may see, as a checkbox ticked while it is shown. */
const ColumnChooser = memo(function ColumnChooser(props: { columns: { name: string; label: string }[]; hidden: ReadonlySet<string>; onToggle: (name: string) => void }) {
  const { t } = useTranslation();
  const shown = props.columns.length - props.hidden.size;
  return (
    <Popover position="bottom-end" shadow="md" trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns3 size={16} />} data-testid="column-chooser">
          {t('crud.columns.menu')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label={t('crud.columns.title')}>
          <Text size="sm" fw={600}>{t('crud.columns.title')}</Text>
          {props.columns.map((column) => {
            const visible = !props.hidden.has(column.name);
            return (
              <Checkbox
                key={column.name}
                label={t(column.label)}
                checked={visible}
                // The last shown column stays: a table needs one.
                disabled={visible && shown <= 1}
                onChange={() => props.onToggle(column.name)}
              />
            );
          })}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
});

const setFilterCache = new WeakMap<EntityTableProps['dispatch'], (field: string, value: unknown) => void>();
/** A stable filter callback per dispatch, so memoised filter inputs do not re-render on every keystroke. */
function setFilter(dispatch: EntityTableProps['dispatch']) {
  let callback = setFilterCache.get(dispatch);
  if (!callback) {
    callback = (field, value) => dispatch({ type: 'setFilter', field, value });
    setFilterCache.set(dispatch, callback);
  }
  return callback;
}

/**
 * One body row. Memoised, and its cells are plain <td>s with Mantine's table class: a page of 100
 * rows has about 900 cells, and a Table.Td component per cell (style props, theme lookups) was a
 * large share of the time to show the page. Rows re-render only when their record, the columns or
 * their selection change.
 */
const EntityRow = memo(function EntityRow(props: {
  row: Row<typeof features, EntityRecord>;
  /** Not read here: the cells come from the row, but new columns (language, actions) must re-render it. */
  columns: readonly unknown[];
  selectable: boolean;
  selected: boolean;
  selectLabel: string;
  onToggle: (id: string) => void;
}) {
  const { row, onToggle } = props;
  return (
    <Table.Tr>
      {props.selectable && (
        <td className={Table.classes.td}>
          <Checkbox aria-label={props.selectLabel} checked={props.selected} onChange={() => onToggle(row.id)} />
        </td>
      )}
      {row.getAllCells().map((cell) => (
        <td key={cell.id} className={Table.classes.td}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </td>
      ))}
    </Table.Tr>
  );
});

const SortHeader = memo(function SortHeader(props: {
  sorted: false | 'asc' | 'desc';
  /** The order is the manifest's default, not the user's choice: the arrow is drawn fainter. */
  byDefault: boolean;
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  const Icon = props.sorted === 'asc' ? IconArrowUp : props.sorted === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton onClick={props.onClick} aria-label={props.label}>
      <Group gap={4} wrap="nowrap">
        <Text fw={700} size="sm">{props.children}</Text>
        <Icon size={14} opacity={props.sorted ? (props.byDefault ? 0.7 : 1) : 0.4} />
      </Group>
    </UnstyledButton>
  );
});
