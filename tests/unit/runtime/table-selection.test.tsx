// Issue 27 item 4 in the console's list: row selection (rows, the page, every row matching the
// query), the bulk delete dialog with its per-row report, export of the chosen rows, the column
// chooser remembered per user and entity, and the list asked for once per change.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { ColumnChoiceUserContext, columnChoiceKey } from '../../../runtime/table/column-choice.ts';
import { RuntimeContext, type RuntimeServices } from '../../../runtime/context/runtime-context.tsx';
import { PermissionsContext } from '../../../runtime/permissions/permissions-context.tsx';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { prefetchCrudRoute } from '../../../src/app/prefetch-crud-route.ts';
import { entities } from '../../../src/generated/entities.ts';
import { manifestIcons } from '../../../src/generated/icons.ts';
import { installBrowserShims, testI18n } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);
beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/crud/bottracestatus');
});
afterEach(() => window.history.replaceState(null, '', '/'));

const base = entities.bottracestatus;
const model: ClientEntityModel = {
  ...base,
  table: { ...base.table, columns: ['name', 'description', 'createdAt'] },
  filters: [{ field: 'name', operator: 'like', label: 'field.bottracestatus.name', permission: null }],
};
const TOTAL = 95;

function rows(page: number, limit: number) {
  return Array.from({ length: limit }, (_, index) => ({ _id: `id-${page}-${index}`, name: `Row ${page}.${index}`, description: `Desc ${page}.${index}`, createdAt: '2024-01-01T00:00:00.000Z' }));
}

function fakeClient() {
  return {
    paginate: vi.fn(async ({ page = 1, limit = 10 }: { page?: number; limit?: number }) => ({ items: rows(page, limit), total: TOTAL })),
    bulkDelete: vi.fn(async ({ body }: { body: { ids?: string[] } }) => {
      const ids = body.ids ?? ['id-1-0', 'id-1-1', 'id-1-2'];
      // The second record is in use, the third belongs to no one the caller may touch.
      return {
        deleted: ids.length - (ids.length > 2 ? 2 : 0),
        failed: ids.length > 2 ? 2 : 0,
        results: ids.map((id, index) =>
          index === 1 && ids.length > 2
            ? { id, label: 'Row in use', deleted: false, error: { status: 409, message: 'in use', i18nMessage: 'error.recordInUse', i18nParams: { count: 3 } } }
            : index === 2 && ids.length > 2
              ? { id, label: 'Row refused', deleted: false, error: { status: 403, message: 'Only platform administrators may change it' } }
              : { id, label: id, deleted: true },
        ),
      };
    }),
    export: vi.fn(async (_query: Record<string, unknown>) => ({ url: '/files/exports/x.json', rowCount: 2, time: 1 })),
    create: vi.fn(async () => ({})),
  };
}

type Provider = ReturnType<typeof fakeClient>;

function services(entityClient: Provider): RuntimeServices {
  return {
    entityClients: { bottracestatus: entityClient },
    entities: {},
    uploader: { uploadFile: async () => ({ filename: 'a', filepath: 'a', size: 1, mimetype: 'text/plain', url: '/a' }) },
    forms: { bottracestatus: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) },
    overrides: {},
    icons: manifestIcons,
  };
}

function setup(options: { entityClient?: Provider; client?: QueryClient; user?: string | null; can?: (permission: string | null | undefined) => boolean; model?: ClientEntityModel } = {}) {
  const entityClient = options.entityClient ?? fakeClient();
  const client = options.client ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider env="test">
      <I18nextProvider i18n={testI18n}>
        <QueryClientProvider client={client}>
          <PermissionsContext value={options.can ?? (() => true)}>
            <RuntimeContext value={services(entityClient)}>
              <ColumnChoiceUserContext.Provider value={options.user ?? null}>
                <CrudPage model={options.model ?? model} />
              </ColumnChoiceUserContext.Provider>
            </RuntimeContext>
          </PermissionsContext>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>,
  );
  return entityClient;
}

const settled = () => waitFor(() => expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'false'));
const rowBox = (name: string) => within(screen.getByText(name).closest('tr')!).getByRole('checkbox', { name: 'Seleccionar fila' });
const bar = () => screen.getByRole('region', { name: 'Filas seleccionadas' });

describe('row selection', () => {
  it('single rows, the page, then every row matching: the count is shown at each step', async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByText('Row 1.0');
    expect(screen.queryByRole('region', { name: 'Filas seleccionadas' })).toBeNull();
    await user.click(rowBox('Row 1.0'));
    await user.click(rowBox('Row 1.3'));
    expect(within(bar()).getByText('2 seleccionados')).toBeInTheDocument();
    // The header box takes the page; the bar then offers all 95.
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar las filas de esta página' }));
    expect(within(bar()).getByText('Están seleccionadas las 10 filas de esta página')).toBeInTheDocument();
    await user.click(within(bar()).getByRole('button', { name: 'Seleccionar los 95 registros que coinciden' }));
    expect(within(bar()).getByText('Están seleccionados los 95 registros que coinciden con la búsqueda y los filtros')).toBeInTheDocument();
    expect(within(bar()).getByRole('button', { name: 'Eliminar 95' })).toBeInTheDocument();
    // Unticking one row of "all matching" leaves the rest of the page chosen.
    await user.click(rowBox('Row 1.4'));
    expect(within(bar()).getByText('9 seleccionados')).toBeInTheDocument();
    await user.click(within(bar()).getByRole('button', { name: 'Quitar la selección' }));
    expect(screen.queryByRole('region', { name: 'Filas seleccionadas' })).toBeNull();
  }, 30_000);

  it('a new filter drops the selection (a bulk action never acts on rows chosen under another query)', async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByText('Row 1.0');
    await user.click(rowBox('Row 1.0'));
    expect(bar()).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Nombre' }), 'x');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Filas seleccionadas' })).toBeNull());
  }, 30_000);

  it('offers no selection to a caller who may neither delete nor export', async () => {
    setup({ can: (permission) => permission === 'bottracestatus:view', model: { ...model, flags: { ...model.flags, exportable: false } } });
    await screen.findByText('Row 1.0');
    expect(screen.queryAllByRole('checkbox', { name: 'Seleccionar fila' })).toHaveLength(0);
  }, 30_000);
});

describe('bulk delete', () => {
  it('"all matching": one confirmation naming the count, the query sent, a report naming each refused row with its reason', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/crud/bottracestatus?filter.name=Row');
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar las filas de esta página' }));
    await user.click(within(bar()).getByRole('button', { name: 'Seleccionar los 95 registros que coinciden' }));
    await user.click(within(bar()).getByRole('button', { name: 'Eliminar 95' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/¿Eliminar 95 registros\?/)).toBeInTheDocument();
    expect(entityClient.bulkDelete).not.toHaveBeenCalled();
    const before = entityClient.paginate.mock.calls.length;
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar 95 registros' }));
    const report = await within(dialog).findByTestId('bulk-delete-report');
    expect(entityClient.bulkDelete).toHaveBeenCalledTimes(1);
    expect(entityClient.bulkDelete.mock.calls[0][0]).toEqual({ body: { matching: { search: undefined, filters: 'name;like;Row', expected: 95 } } });
    expect(within(report).getByRole('status')).toHaveTextContent('1 registro eliminado · 2 no eliminados');
    const inUse = within(report).getByText('Row in use').closest('tr')!;
    expect(inUse).toHaveTextContent('No se puede eliminar el registro: lo usan 3 registros');
    // No locale key from the server: the reason by its status.
    expect(within(report).getByText('Row refused').closest('tr')!).toHaveTextContent('No tienes permiso');
    await user.click(within(report).getByRole('button', { name: 'Cerrar' }));
    // Closed: the list is asked again and the selection is gone.
    await waitFor(() => expect(entityClient.paginate.mock.calls.length).toBe(before + 1));
    expect(screen.queryByRole('region', { name: 'Filas seleccionadas' })).toBeNull();
  }, 30_000);

  it('chosen rows: their ids are sent; Cancel sends nothing', async () => {
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await user.click(rowBox('Row 1.2'));
    await user.click(rowBox('Row 1.5'));
    await user.click(within(bar()).getByRole('button', { name: 'Eliminar 2' }));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(entityClient.bulkDelete).not.toHaveBeenCalled();
    await user.click(within(bar()).getByRole('button', { name: 'Eliminar 2' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar 2 registros' }));
    await within(dialog).findByTestId('bulk-delete-report');
    expect(entityClient.bulkDelete.mock.calls[0][0]).toEqual({ body: { ids: ['id-1-2', 'id-1-5'] } });
    expect(within(dialog).getByRole('status')).toHaveTextContent('2 registros eliminados');
  }, 30_000);

  it('a request that fails as a whole is said, never a silent stop', async () => {
    const user = userEvent.setup();
    const entityClient = fakeClient();
    entityClient.bulkDelete.mockRejectedValueOnce(new ApiError('error.bulkTooMany', 'client', 413, {}, null, { count: 1200, max: 1000 }));
    setup({ entityClient });
    await screen.findByText('Row 1.0');
    await user.click(rowBox('Row 1.1'));
    await user.click(within(bar()).getByRole('button', { name: 'Eliminar 1' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar 1 registro' }));
    const report = await within(dialog).findByTestId('bulk-delete-report');
    expect(report).toHaveTextContent('El borrado masivo se detuvo');
    expect(report).toHaveTextContent('1200 registros son demasiados');
    expect(report).toHaveTextContent('No se confirmó la eliminación de 1 registro');
  }, 30_000);
});

describe('export of the selection', () => {
  it('exports exactly the chosen rows by id, and "all matching" as the list\'s query', async () => {
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await user.click(rowBox('Row 1.0'));
    await user.click(rowBox('Row 1.7'));
    await user.click(within(bar()).getByRole('button', { name: 'Exportar 2' }));
    await user.click(await screen.findByRole('menuitem', { name: 'JSON' }));
    await waitFor(() => expect(entityClient.export).toHaveBeenCalledTimes(1));
    expect(entityClient.export.mock.calls[0][0]).toMatchObject({ format: 'JSON', search: undefined, filters: [{ field: '_id', operator: 'in', value: ['id-1-0', 'id-1-7'] }] });
  }, 30_000);
});

describe('column chooser', () => {
  it('hides a column, remembers it per user and entity across a reload, and keeps the last column', async () => {
    const user = userEvent.setup();
    setup({ user: 'user-a' });
    await screen.findByText('Row 1.0');
    expect(within(screen.getByRole('table')).getByText('Desc 1.0')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columnas' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Descripción' }));
    await waitFor(() => expect(screen.queryByText('Desc 1.0')).toBeNull());
    expect(JSON.parse(localStorage.getItem(columnChoiceKey('user-a', 'bottracestatus'))!)).toEqual(['description']);
    // A reload: the same user sees the same columns; another user has their own.
    cleanup();
    setup({ user: 'user-a' });
    await screen.findByText('Row 1.0');
    expect(screen.queryByText('Desc 1.0')).toBeNull();
    cleanup();
    setup({ user: 'user-b' });
    expect(await screen.findByText('Desc 1.0')).toBeInTheDocument();
    // The last shown column cannot be hidden.
    await user.click(screen.getByRole('button', { name: 'Columnas' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Descripción' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Fecha de creación' }));
    expect(screen.getByRole('checkbox', { name: 'Nombre' })).toBeDisabled();
    expect(screen.getByText('Row 1.0')).toBeInTheDocument();
  }, 30_000);

  it('ignores a saved choice that is not a list of names, or names a column that is gone', async () => {
    localStorage.setItem(columnChoiceKey(null, 'bottracestatus'), JSON.stringify(['gone', 'description']));
    setup();
    await screen.findByText('Row 1.0');
    expect(screen.queryByText('Desc 1.0')).toBeNull();
    cleanup();
    localStorage.setItem(columnChoiceKey(null, 'bottracestatus'), '{not json');
    setup();
    expect(await screen.findByText('Desc 1.0')).toBeInTheDocument();
  }, 30_000);
});

describe('the list is requested once per change', () => {
  it.each([
    ['the plain list', '/crud/bottracestatus', undefined],
    ['a filtered address', '/crud/bottracestatus?filter.name=Row', 'Row'],
  ])('opening %s: the route prefetch and the page share one request', async (_name, address, filter) => {
    window.history.replaceState(null, '', address);
    const entityClient = fakeClient();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The route entry prefetches while the page's chunk loads; the page mounts once that answered.
    prefetchCrudRoute(client, services(entityClient), () => true, model, { whenAbsent: true });
    await waitFor(() => expect(entityClient.paginate).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    setup({ entityClient, client });
    await screen.findByText('Row 1.0');
    await settled();
    expect(entityClient.paginate).toHaveBeenCalledTimes(1);
    expect(entityClient.paginate.mock.calls[0][0]).toMatchObject({ page: 1, filters: [{ field: 'name', operator: 'like', value: filter }] });
  }, 30_000);

  it('a page change, a sort and a filter each ask once', async () => {
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await settled();
    expect(entityClient.paginate).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Página 2' }));
    await screen.findByText('Row 2.0');
    await settled();
    expect(entityClient.paginate).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole('button', { name: 'Ordenar por Nombre' }));
    await waitFor(() => expect(entityClient.paginate).toHaveBeenCalledTimes(3));
    await settled();
    await user.type(screen.getByRole('textbox', { name: 'Nombre' }), 'R');
    await waitFor(() => expect(entityClient.paginate).toHaveBeenCalledTimes(4));
    await settled();
    expect(entityClient.paginate).toHaveBeenCalledTimes(4);
  }, 30_000);
});
