import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Button, Group, Menu, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEye, IconPencil, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { mayDo } from '../../contract/permissions/entity-access.ts';
import type { ClientEntityModel, FileFormat } from '../model/client-entity-model.ts';
import { useCan } from '../permissions/permissions-context.tsx';
import { requireEntityClient, useRuntime } from '../context/runtime-context.tsx';
import { entityOverrides, requireRowActionHandler } from '../overrides/override-registry.ts';
import { EntityTable } from '../table/entity-table.tsx';
import { TOOLTIP_ATTRIBUTE } from '../table/use-delegated-tooltip.tsx';
import { selectionCount, type SelectionStrategy, type TableSelection } from '../table/table-state.ts';
import type { ExportEntry } from '../export/export-panel.tsx';
import { lazyWithPreload } from '../lazy/lazy-with-preload.ts';
import type { CrudResult } from '../core/crud-dialog-state.ts';
import { successMessageKeys } from '../core/crud-outcome.ts';
import { entityRecordQuery } from '../core/entity-record-query.ts';
import { useCrudDialogController } from '../core/use-crud-dialog-controller.ts';
import { useListController } from '../core/use-list-controller.ts';
import { CrudDialog } from './crud-dialog.tsx';
import { crudFormQuery } from './crud-form-query.ts';
import { filtersFromSearch, searchWithFilters } from './location-filters.ts';
import { linkedRecordFromSearch, searchWithoutLinkedRecord } from './linked-record.ts';
import { useReplaceSearch } from './replace-search.tsx';
import { requireRowActionIcon } from './row-action-icons.ts';
import type { EntityRecord } from './prepare-record.ts';
import { BulkDeleteDialog } from './bulk-delete-dialog.tsx';
import { runBulkDelete } from './run-bulk-delete.ts';
import type { FilterInput } from '../clients/queries.ts';

// The list alone is what most visits need: export and import load on first use.
const ExportPanel = lazyWithPreload(() => import('../export/export-panel.tsx').then((module) => module.ExportPanel));
const ImportDialog = lazyWithPreload(() => import('../import/import-dialog.tsx').then((module) => module.ImportDialog));

/** docs/product-rules.md#constants: search input debounce and notification duration. */
export const SEARCH_DEBOUNCE_MS = 500;
export const NOTIFICATION_MS = 3000;
/**
 * Chosen rows an export carries as an `_id in (...)` filter in its address: 250 ids stay well
 * under the request line limits of servers and proxies (8-16 kB). "All matching" has no limit.
 */
export const MAX_EXPORT_IDS = 250;

export interface CrudPageProps {
  model: ClientEntityModel;
  /** Row selection (docs/product-rules.md#states, Table: single, page, all); by default "all" when a bulk action (delete, export) is allowed, else none. */
  selection?: SelectionStrategy | null;
  /** Every dialog outcome, for pages that build on the generic one. */
  onResult?: (result: CrudResult) => void;
}

/** The generic CRUD screen of docs/product-rules.md#screens for any entity model. */
export function CrudPage({ model, selection: selectionProp, onResult }: CrudPageProps) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const services = useRuntime();
  const entityClient = requireEntityClient(services, model.name);
  const overrides = entityOverrides(services.overrides, model.name);
  const queryClient = useQueryClient();
  const { permissions, flags } = model;

  // The server's rule for the same actions (contract/permissions): :manage implies the other four.
  const canList = mayDo(can, permissions, 'view');
  // The headless list (runtime/core): the table below renders its rows and dispatches to it.
  const { table, dispatchTable, params: query, rows, total, fetching, reload } = useListController({
    model,
    entityClient,
    enabled: canList,
    initialFilterValues: () => (typeof window === 'undefined' ? {} : filtersFromSearch(model, window.location.search)),
  });
  const [searchText, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => dispatchTable({ type: 'setSearch', search: debouncedSearch.trim() }), [debouncedSearch, dispatchTable]);

  const notifySuccess = useCallback(
    (key: string) => notifications.show({ message: t(successMessageKeys(model.name, key)), color: 'green', autoClose: NOTIFICATION_MS }),
    [t, model.name],
  );
  // The headless dialog (runtime/core): create, edit and delete run as TanStack mutations.
  const { state: dialog, open, submit: submitDialog, cancel } = useCrudDialogController({ model, entityClient, notifySuccess, onResult });
  const submit = useCallback((data: EntityRecord, validate: () => boolean) => void submitDialog(data, validate), [submitDialog]);
  // Hover or focus on an action that opens the dialog fetches its form code and schemas meanwhile.
  const preloadDialog = useCallback(
    () => void queryClient.prefetchQuery(crudFormQuery(model.name, services.forms, overrides.form)),
    [queryClient, model.name, services.forms, overrides.form],
  );

  const [exports, setExports] = useState<ExportEntry[]>([]);
  const [exportsVisible, setExportsVisible] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  // Mounted from the first open on, so closing keeps the modal's exit transition.
  const [importUsed, setImportUsed] = useState(false);
  const openImport = useCallback(() => {
    setImportUsed(true);
    setImportOpen(true);
  }, []);
  const runExport = useCallback(
    async (format: FileFormat, locale?: string, ids?: string[]) => {
      const key = Date.now();
      setExportsVisible(true);
      setExports((entries) => [{ key, format, file: null }, ...entries]);
      // Chosen rows: exactly those (by id), in the list's order; otherwise every row the list matches.
      const filters: FilterInput[] | undefined = ids ? [{ field: '_id', operator: 'in', value: ids }] : query.filters;
      try {
        const file = await entityClient.export({ format, headers: model.export.headers, orderBy: query.orderBy, order: query.order, search: ids ? undefined : query.search, filters, ...(locale ? { locale } : {}) });
        setExports((entries) => entries.map((entry) => (entry.key === key ? { ...entry, file } : entry)));
        notifySuccess('crud.export.success');
      } catch (error) {
        // docs/product-rules.md#errors: export failures are only logged.
        console.error(error);
        setExports((entries) => entries.filter((entry) => entry.key !== key));
      }
    },
    [entityClient, model.export.headers, query, notifySuccess],
  );

  const writable = !overrides.readOnly;
  const canCreate = writable && flags.creatable && mayDo(can, permissions, 'create');
  const canExport = flags.exportable && model.export.formats.length > 0 && mayDo(can, permissions, 'view');
  const canImport = writable && flags.importable && model.import.formats.length > 0 && mayDo(can, permissions, 'create');
  // An action's `entity:view` (or create, update, delete) is granted by `entity:manage` too, as on the server.
  const rowActions = useMemo(
    () => model.rowActions.filter((action) => !action.permission || can(action.permission) || can(action.permission.replace(/:(view|create|update|delete)$/, ':manage'))),
    [model.rowActions, can],
  );
  const rowAllows = overrides.rowAllows;
  const canViewRow = flags.viewable && mayDo(can, permissions, 'view');
  const canEditRow = writable && flags.editable && mayDo(can, permissions, 'update');
  const canDeleteRow = writable && flags.deletable && mayDo(can, permissions, 'delete');
  const hasRowActions = canViewRow || canEditRow || canDeleteRow || rowActions.length > 0;
  const selection = selectionProp !== undefined ? selectionProp : canDeleteRow || canExport ? 'all' : null;

  // Bulk delete of the selection: the dialog confirms with the count, runs it and reports per row.
  const [bulkDelete, setBulkDelete] = useState<NonNullable<TableSelection> | null>(null);
  const runBulk = useCallback(() => {
    if (!bulkDelete) throw new Error('Bulk delete run without a selection');
    return runBulkDelete(entityClient, bulkDelete.kind === 'ids' ? { kind: 'ids', ids: bulkDelete.ids } : { kind: 'matching', search: query.search, filters: query.filters, expected: bulkDelete.count });
  }, [bulkDelete, entityClient, query.search, query.filters]);
  const closeBulk = useCallback(
    (ran: boolean) => {
      setBulkDelete(null);
      if (!ran) return;
      dispatchTable({ type: 'clearSelection' });
      reload();
    },
    [reload],
  );
  const renderBulkActions = useMemo(() => {
    if (!canDeleteRow && !canExport) return undefined;
    return (chosen: NonNullable<TableSelection>) => {
      const ids = chosen.kind === 'ids' ? chosen.ids : undefined;
      const exportTooMany = ids !== undefined && ids.length > MAX_EXPORT_IDS;
      return (
        <>
          {canExport && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconDownload size={14} />}
                  disabled={exportTooMany}
                  title={exportTooMany ? t('crud.bulk.exportTooMany', { max: MAX_EXPORT_IDS }) : undefined}
                  onPointerEnter={() => void ExportPanel.preload()}
                >
                  {t('crud.bulk.export', { count: selectionCount(chosen) })}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {model.export.formats.map((format) => (
                  <Menu.Item key={format} onClick={() => void runExport(format, undefined, ids)}>
                    {format}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          {canDeleteRow && (
            <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} onClick={() => setBulkDelete(chosen)} data-testid="bulk-delete">
              {t('crud.bulk.delete', { count: selectionCount(chosen) })}
            </Button>
          )}
        </>
      );
    };
  }, [canDeleteRow, canExport, model.export.formats, runExport, t]);

  // A link to one record opens it (linked-record.ts): ?edit=<id> in the edit dialog, or the view
  // dialog for a caller who may only view; ?view=<id> in the view dialog.
  const linked = useMemo(() => (typeof window === 'undefined' ? null : linkedRecordFromSearch(window.location.search)), []);
  const linkedOperation = linked?.operation === 'edit' && canEditRow ? 'edit' : canViewRow ? 'view' : null;
  // The failure message in the current language, without a language change opening the link again.
  const linkFailed = useRef<() => string>(() => '');
  linkFailed.current = () => t('crud.linkedNotFound', { entity: t(model.label) });
  // The dialog the link opened, while it is open: closing it (cancel, Escape, close button, a save)
  // takes the link out of the address, so a reload does not open it again.
  const linkedDialogOpen = useRef(false);
  const replaceSearch = useReplaceSearch();
  // The filter bar's state lives in the address too: a reload or a shared link shows the same list.
  useEffect(() => {
    const search = searchWithFilters(model, window.location.search, table.filterValues);
    if (search !== window.location.search) replaceSearch(search);
  }, [model, table.filterValues, replaceSearch]);
  useEffect(() => {
    if (dialog.operation || !linkedDialogOpen.current) return;
    linkedDialogOpen.current = false;
    const search = searchWithoutLinkedRecord(window.location.search);
    if (search !== window.location.search) replaceSearch(search);
  }, [dialog.operation, replaceSearch]);
  useEffect(() => {
    if (!linked || !linkedOperation) return;
    let current = true;
    queryClient
      .fetchQuery(entityRecordQuery(model.name, entityClient, linked.id))
      .then((record) => {
        if (!current) return;
        linkedDialogOpen.current = true;
        open(linkedOperation, record);
      })
      .catch((error: unknown) => {
        if (!current) return;
        console.warn(`The linked ${model.name} ${linked.id} could not be opened`, error);
        notifications.show({ message: linkFailed.current(), color: 'red', autoClose: NOTIFICATION_MS });
      });
    return () => {
      current = false;
    };
  }, [linked, linkedOperation, entityClient, open, model.name, queryClient]);

  const renderRowActions = useMemo(() => {
    if (!hasRowActions) return undefined;
    // The table shows one shared tooltip for every element with TOOLTIP_ATTRIBUTE (use-delegated-tooltip.tsx).
    const actionButton = (label: string, icon: ReactNode, onClick: () => void, color?: string, onIntent?: () => void) => (
      <ActionIcon
        key={label}
        variant="subtle"
        color={color}
        aria-label={label}
        {...{ [TOOLTIP_ATTRIBUTE]: label }}
        onClick={onClick}
        onPointerEnter={onIntent}
        onFocus={onIntent}
      >
        {icon}
      </ActionIcon>
    );
    return (row: EntityRecord) => (
      <Group gap={4} wrap="nowrap">
        {canViewRow && actionButton(t('crud.view'), <IconEye size={18} />, () => open('view', row), undefined, preloadDialog)}
        {canEditRow && (!rowAllows || rowAllows('edit', row)) && actionButton(t('crud.edit'), <IconPencil size={18} />, () => open('edit', row), undefined, preloadDialog)}
        {canDeleteRow && (!rowAllows || rowAllows('delete', row)) && actionButton(t('crud.delete'), <IconTrash size={18} />, () => open('delete', row), 'red', preloadDialog)}
        {rowActions.map((action) => {
          const Icon = requireRowActionIcon(services.icons, action.icon);
          const override = requireRowActionHandler(services.overrides, model.name, action.name);
          if (typeof override !== 'function') {
            const Action = override.component;
            return <Action key={action.name} row={row} model={model} reload={reload} label={t(action.label)} icon={Icon} />;
          }
          return actionButton(t(action.label), <Icon size={18} />, () => void override({ row, model, reload }));
        })}
      </Group>
    );
  }, [hasRowActions, canViewRow, canEditRow, canDeleteRow, rowAllows, rowActions, t, open, preloadDialog, services.overrides, model, reload]);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t(model.labelPlural)}</Title>
        <Group gap="xs">
          {canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => open('create')} onPointerEnter={preloadDialog} onFocus={preloadDialog}>
              {t('crud.create')}
            </Button>
          )}
          {canExport && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="light" leftSection={<IconDownload size={16} />} onPointerEnter={() => void ExportPanel.preload()}>
                  {t('crud.export.menu')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {model.export.formats.map((format) => (
                  <Menu.Item key={format} onClick={() => void runExport(format)}>
                    {format}
                  </Menu.Item>
                ))}
                {model.export.formats.includes('CSV') && (
                  // Labels and values in the UI language for reading; the plain CSV is the one imports read back.
                  <Menu.Item onClick={() => void runExport('CSV', i18n.language)} data-testid="export-csv-localized">
                    {t('crud.export.csvForPeople')}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
          {canImport && (
            <Button variant="light" leftSection={<IconUpload size={16} />} onClick={openImport} onPointerEnter={() => void ImportDialog.preload()}>
              {t('crud.import.menu')}
            </Button>
          )}
        </Group>
      </Group>
      {canList ? (
        <EntityTable
          model={model}
          can={can}
          state={table}
          dispatch={dispatchTable}
          searchText={searchText}
          onSearchTextChange={setSearchText}
          rows={rows}
          total={total}
          loading={fetching}
          selection={selection}
          renderRowActions={renderRowActions}
          renderBulkActions={renderBulkActions}
        />
      ) : (
        <Alert color="yellow">{t('crud.noPermission')}</Alert>
      )}
      {exportsVisible && exports.length > 0 && (
        <Suspense fallback={null}>
          <ExportPanel entries={exports} entity={model.name} onClear={() => setExports([])} onClose={() => setExportsVisible(false)} />
        </Suspense>
      )}
      {canDeleteRow && (
        <BulkDeleteDialog opened={bulkDelete !== null} count={selectionCount(bulkDelete)} entityLabel={t(model.labelPlural)} run={runBulk} onClose={closeBulk} />
      )}
      <CrudDialog model={model} state={dialog} onSubmit={submit} onCancel={cancel} form={overrides.form} fieldWidgets={overrides.fieldWidgets} canSubmit={overrides.canSubmit} />
      {canImport && importUsed && (
        <Suspense fallback={null}>
          <ImportDialog model={model} entityClient={entityClient} opened={importOpen} onClose={() => setImportOpen(false)} onImported={() => reload()} />
        </Suspense>
      )}
    </Stack>
  );
}
