import { useCallback, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Button, Group, Menu, Stack, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEye, IconPencil, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ClientEntityModel, FileFormat } from '../model/client-entity-model.ts';
import { useCan } from '../permissions/permissions-context.tsx';
import { requireProvider, useRuntime } from '../context/runtime-context.tsx';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { entityOverrides, requireRowActionHandler } from '../overrides/override-registry.ts';
import { EntityTable } from '../table/entity-table.tsx';
import { activeFilters, initialTableState, tableReducer, type SelectionStrategy } from '../table/table-state.ts';
import { ExportPanel, type ExportEntry } from '../export/export-panel.tsx';
import { ImportDialog } from '../import/import-dialog.tsx';
import { crudDialogReducer, initialCrudDialogState, type CrudOperation, type CrudResult } from './crud-dialog-state.ts';
import { cancelCrudDialog, submitCrudDialog } from './crud-controller.ts';
import { CrudDialog } from './crud-dialog.tsx';
import { requireRowActionIcon } from './row-action-icons.ts';
import type { EntityRecord } from './prepare-record.ts';

/** Spec §9: search input debounce and notification duration. */
export const SEARCH_DEBOUNCE_MS = 500;
export const NOTIFICATION_MS = 3000;

export interface CrudPageProps {
  model: ClientEntityModel;
  selection?: SelectionStrategy | null;
  /** Every dialog outcome, for pages that build on the generic one. */
  onResult?: (result: CrudResult) => void;
}

/** The generic CRUD screen of spec §2 for any entity model. */
export function CrudPage({ model, selection = null, onResult }: CrudPageProps) {
  const { t } = useTranslation();
  const can = useCan();
  const services = useRuntime();
  const provider = requireProvider(services, model.name);
  const overrides = entityOverrides(services.overrides, model.name);
  const queryClient = useQueryClient();
  const keys = useMemo(() => entityQueryKeys(model.name), [model.name]);
  const { permissions, flags } = model;

  const [table, dispatchTable] = useReducer(tableReducer, undefined, () => initialTableState());
  const [searchText, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => dispatchTable({ type: 'setSearch', search: debouncedSearch.trim() }), [debouncedSearch]);

  const canList = can(permissions.view) || can(permissions.manage);
  const query = useMemo(
    () => ({
      page: table.page,
      limit: table.pageSize,
      orderBy: table.sort?.field,
      order: table.sort?.order,
      search: table.search || undefined,
      filters: activeFilters(model.filters, table.filterValues),
    }),
    [table.page, table.pageSize, table.sort, table.search, table.filterValues, model.filters],
  );
  const list = useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => provider.paginate({ ...query, signal }),
    placeholderData: keepPreviousData,
    enabled: canList,
  });
  // Spec §8: pagination failures are only logged.
  useEffect(() => {
    if (list.error) console.error(list.error);
  }, [list.error]);
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: keys.all }), [queryClient, keys]);

  const [dialog, dispatchDialog] = useReducer(crudDialogReducer, initialCrudDialogState);
  const open = useCallback((operation: CrudOperation, row?: EntityRecord) => dispatchDialog({ type: 'open', operation, row, model }), [model]);
  const notifySuccess = useCallback(
    (key: string) => notifications.show({ message: t(key), color: 'green', autoClose: NOTIFICATION_MS }),
    [t],
  );
  const submit = useCallback(
    (data: EntityRecord, validate: () => boolean) =>
      void submitCrudDialog(dialog, data, { provider, dispatch: dispatchDialog, reload, notifySuccess, onResult, validate }),
    [dialog, provider, reload, notifySuccess, onResult],
  );
  const cancel = useCallback(() => cancelCrudDialog({ dispatch: dispatchDialog, onResult }), [onResult]);

  const [exports, setExports] = useState<ExportEntry[]>([]);
  const [exportsVisible, setExportsVisible] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const runExport = useCallback(
    async (format: FileFormat) => {
      const key = Date.now();
      setExportsVisible(true);
      setExports((entries) => [{ key, format, file: null }, ...entries]);
      try {
        const file = await provider.export({ format, headers: model.export.headers, orderBy: query.orderBy, order: query.order, search: query.search, filters: query.filters });
        setExports((entries) => entries.map((entry) => (entry.key === key ? { ...entry, file } : entry)));
        notifySuccess('crud.export.success');
      } catch (error) {
        // Spec §8: export failures are only logged.
        console.error(error);
        setExports((entries) => entries.filter((entry) => entry.key !== key));
      }
    },
    [provider, model.export.headers, query, notifySuccess],
  );

  const canCreate = flags.creatable && can(permissions.create);
  const canExport = flags.exportable && model.export.formats.length > 0 && can(permissions.view);
  const canImport = flags.importable && model.import.formats.length > 0 && can(permissions.create);
  const rowActions = useMemo(() => model.rowActions.filter((action) => !action.permission || can(action.permission)), [model.rowActions, can]);
  const canViewRow = flags.viewable && can(permissions.view);
  const canEditRow = flags.editable && can(permissions.update);
  const canDeleteRow = flags.deletable && can(permissions.delete);
  const hasRowActions = canViewRow || canEditRow || canDeleteRow || rowActions.length > 0;

  const renderRowActions = useMemo(() => {
    if (!hasRowActions) return undefined;
    const actionButton = (label: string, icon: ReactNode, onClick: () => void, color?: string) => (
      <Tooltip label={label} key={label} openDelay={300} closeDelay={250}>
        <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick}>
          {icon}
        </ActionIcon>
      </Tooltip>
    );
    return (row: EntityRecord) => (
      <Group gap={4} wrap="nowrap">
        {canViewRow && actionButton(t('crud.view'), <IconEye size={18} />, () => open('view', row))}
        {canEditRow && actionButton(t('crud.edit'), <IconPencil size={18} />, () => open('edit', row))}
        {canDeleteRow && actionButton(t('crud.delete'), <IconTrash size={18} />, () => open('delete', row), 'red')}
        {rowActions.map((action) => {
          const Icon = requireRowActionIcon(action.icon);
          const override = requireRowActionHandler(services.overrides, model.name, action.name);
          if (typeof override !== 'function') {
            const Action = override.component;
            return <Action key={action.name} row={row} model={model} reload={reload} label={t(action.label)} icon={Icon} />;
          }
          return actionButton(t(action.label), <Icon size={18} />, () => void override({ row, model, reload }));
        })}
      </Group>
    );
  }, [hasRowActions, canViewRow, canEditRow, canDeleteRow, rowActions, t, open, services.overrides, model, reload]);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t(model.labelPlural)}</Title>
        <Group gap="xs">
          {canCreate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => open('create')}>
              {t('crud.create')}
            </Button>
          )}
          {canExport && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="light" leftSection={<IconDownload size={16} />}>
                  {t('crud.export.menu')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {model.export.formats.map((format) => (
                  <Menu.Item key={format} onClick={() => void runExport(format)}>
                    {format}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          {canImport && (
            <Button variant="light" leftSection={<IconUpload size={16} />} onClick={() => setImportOpen(true)}>
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
          rows={(list.data?.items as EntityRecord[] | undefined) ?? EMPTY_ROWS}
          total={list.data?.total ?? 0}
          loading={list.isFetching}
          selection={selection}
          renderRowActions={renderRowActions}
        />
      ) : (
        <Alert color="yellow">{t('crud.noPermission')}</Alert>
      )}
      {exportsVisible && exports.length > 0 && (
        <ExportPanel entries={exports} onClear={() => setExports([])} onClose={() => setExportsVisible(false)} />
      )}
      <CrudDialog model={model} state={dialog} onSubmit={submit} onCancel={cancel} form={overrides.form} fieldWidgets={overrides.fieldWidgets} canSubmit={overrides.canSubmit} />
      {canImport && (
        <ImportDialog model={model} provider={provider} opened={importOpen} onClose={() => setImportOpen(false)} onImported={() => reload()} />
      )}
    </Stack>
  );
}

const EMPTY_ROWS: EntityRecord[] = [];
