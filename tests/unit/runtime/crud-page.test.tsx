import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import { entities } from '../../../src/generated/entities.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);

const base = entities.bottracestatus;
const model: ClientEntityModel = {
  ...base,
  table: { ...base.table, columns: ['name', 'description', 'createdAt'] },
  fields: base.fields.map((field) => (field.name === 'description' ? { ...field, permission: 'secret:see' } : field)),
  filters: [
    { field: 'name', operator: 'eq', label: 'field.bottracestatus.name', permission: null },
    { field: 'description', operator: 'like', label: 'field.bottracestatus.description', permission: 'secret:see' },
  ],
};

function rows(page: number, limit: number) {
  return Array.from({ length: limit }, (_, index) => ({ _id: `id-${page}-${index}`, name: `Row ${page}.${index}`, description: 'd', createdAt: '2024-01-01T00:00:00.000Z' }));
}

function setup(can: (permission: string | null | undefined) => boolean = () => true, shown: ClientEntityModel = model) {
  const entityClient = {
    paginate: vi.fn(async ({ page = 1, limit = 10 }: { page?: number; limit?: number; search?: string }) => ({ items: rows(page, limit), total: 95 })),
    create: vi.fn(async () => ({})),
  };
  render(
    <RuntimeHarness services={{ entityClients: { bottracestatus: entityClient }, forms: { bottracestatus: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) } }} can={can}>
      <CrudPage model={shown} />
    </RuntimeHarness>,
  );
  return entityClient;
}

const lastQuery = (entityClient: ReturnType<typeof setup>) => entityClient.paginate.mock.calls.at(-1)?.[0] as Record<string, unknown>;

describe('CrudPage list (docs/product-rules.md#screens, #states Table)', () => {
  it('loads page 1 with 10 rows and renders typed cells', async () => {
    const entityClient = setup();
    expect(await screen.findByText('Row 1.0')).toBeInTheDocument();
    expect(lastQuery(entityClient)).toMatchObject({ page: 1, limit: 10 });
    expect(screen.getAllByText('01/01/2024 00:00:00').length).toBeGreaterThan(0);
  });

  it('hides columns, filters and actions without their permission; no list without view', async () => {
    setup((permission) => permission !== 'secret:see' && permission !== 'bottracestatus:delete' && permission !== 'bottracestatus:create' && permission !== 'bottracestatus:manage');
    await screen.findByText('Row 1.0');
    const table = screen.getByRole('table');
    expect(within(table).queryByText('Descripción')).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Descripción' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Nombre' })).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: 'Eliminar' })).toHaveLength(0);
    expect(screen.getAllByRole('button', { name: 'Editar' }).length).toBe(10);
    expect(screen.queryByRole('button', { name: 'Crear' })).toBeNull();
  }, 15_000);

  it(':manage alone opens the list and offers create, view, edit and delete (the server\'s rule)', async () => {
    setup((permission) => permission === 'bottracestatus:manage');
    await screen.findByText('Row 1.0');
    expect(screen.getByRole('button', { name: 'Crear' })).toBeInTheDocument();
    for (const action of ['Ver', 'Editar', 'Eliminar']) expect(screen.getAllByRole('button', { name: action })).toHaveLength(10);
  });

  it(':view alone opens the list and the view dialog, and offers no writes', async () => {
    setup((permission) => permission === 'bottracestatus:view');
    await screen.findByText('Row 1.0');
    expect(screen.getAllByRole('button', { name: 'Ver' })).toHaveLength(10);
    expect(screen.queryByRole('button', { name: 'Crear' })).toBeNull();
    expect(screen.queryAllByRole('button', { name: 'Editar' })).toHaveLength(0);
    expect(screen.queryAllByRole('button', { name: 'Eliminar' })).toHaveLength(0);
  });

  it('the filter bar filters the list and keeps its state in the address; a reload restores it', async () => {
    window.history.replaceState(null, '', '/crud/bottracestatus?keep=1');
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await user.type(screen.getByRole('textbox', { name: 'Nombre' }), 'Abierto');
    await waitFor(() => expect(lastQuery(entityClient).filters).toEqual([{ field: 'name', operator: 'eq', value: 'Abierto' }, { field: 'description', operator: 'like', value: undefined }]));
    await waitFor(() => expect(window.location.search).toBe('?keep=1&filter.name=Abierto'));
    // A reload (a fresh page on the same address) starts with the same filter.
    cleanup();
    const reloaded = setup();
    await waitFor(() => expect(lastQuery(reloaded)).toMatchObject({ filters: [{ field: 'name', operator: 'eq', value: 'Abierto' }, { field: 'description', operator: 'like', value: undefined }] }));
    expect(screen.getByRole('textbox', { name: 'Nombre' })).toHaveValue('Abierto');
    await user.clear(screen.getByRole('textbox', { name: 'Nombre' }));
    await waitFor(() => expect(window.location.search).toBe('?keep=1'));
    window.history.replaceState(null, '', '/');
  }, 30_000);

  it('shows no list without the view permission', () => {
    const entityClient = setup((permission) => permission !== 'bottracestatus:view' && permission !== 'bottracestatus:manage');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No tienes permiso para ver este listado')).toBeInTheDocument();
    expect(entityClient.paginate).not.toHaveBeenCalled();
  });

  it('debounces the search by 500 ms and resets to page 1', async () => {
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await user.click(screen.getByRole('button', { name: 'Página 3' }));
    await waitFor(() => expect(lastQuery(entityClient)).toMatchObject({ page: 3 }));
    const calls = entityClient.paginate.mock.calls.length;
    await user.type(screen.getByRole('textbox', { name: 'Buscar' }), 'bot');
    expect(entityClient.paginate.mock.calls.length).toBe(calls);
    await waitFor(() => expect(lastQuery(entityClient)).toMatchObject({ page: 1, search: 'bot' }), { timeout: 5000 });
    expect(entityClient.paginate.mock.calls.filter(([query]) => String(query.search ?? '').length > 0 && query.search !== 'bot')).toHaveLength(0);
  }, 15_000);

  it('changing the page size resets to page 1', async () => {
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    await user.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(lastQuery(entityClient)).toMatchObject({ page: 2 }));
    await user.click(screen.getAllByLabelText('Filas por página').find((element) => element.tagName === 'INPUT')!);
    await user.click(await screen.findByRole('option', { name: '20' }));
    await waitFor(() => expect(lastQuery(entityClient)).toMatchObject({ page: 1, limit: 20 }));
  }, 15_000);

  it('header clicks cycle the sort asc, desc, off; off is the manifest default again', async () => {
    const user = userEvent.setup();
    const entityClient = setup();
    await screen.findByText('Row 1.0');
    expect(lastQuery(entityClient)).toMatchObject({ orderBy: 'createdAt', order: 'asc' });
    const header = screen.getByRole('button', { name: 'Ordenar por Nombre' });
    // ARIA: the order is stated by the header cell, not by the button inside it.
    const cell = header.closest('th')!;
    await user.click(header);
    await waitFor(() => expect(lastQuery(entityClient)).toMatchObject({ orderBy: 'name', order: 'asc' }));
    expect(cell).toHaveAttribute('aria-sort', 'ascending');
    await user.click(header);
    await waitFor(() => expect(lastQuery(entityClient)).toMatchObject({ orderBy: 'name', order: 'desc' }));
    const before = entityClient.paginate.mock.calls.length;
    await user.click(header);
    await waitFor(() => expect(cell).toHaveAttribute('aria-sort', 'none'));
    // Back to the default sort: its first page is still fresh in the query cache, so it is shown
    // again without a request; any request made is for the default sort.
    const after = entityClient.paginate.mock.calls.slice(before).map(([query]) => query as { orderBy?: string; order?: string });
    expect(after.every((query) => query.orderBy === 'createdAt' && query.order === 'asc')).toBe(true);
    expect(screen.getByText('Row 1.0')).toBeInTheDocument();
  });

  it('with no sort chosen, asks for and shows the manifest default (newest first)', async () => {
    const entityClient = setup(undefined, { ...model, table: { ...model.table, defaultSort: { field: 'createdAt', order: 'desc' } } });
    await screen.findByText('Row 1.0');
    expect(entityClient.paginate.mock.calls.every(([query]) => (query as any).orderBy === 'createdAt' && (query as any).order === 'desc')).toBe(true);
    const created = screen.getAllByRole('columnheader').find((cell) => (cell.getAttribute('aria-sort') ?? 'none') !== 'none');
    expect(created).toHaveAttribute('aria-sort', 'descending');
    expect(created?.querySelector('button')?.getAttribute('aria-label')).toMatch(/Creado|Fecha de creación|creación/i);
  });
});

describe('CrudPage dialog when the form cannot load', () => {
  it('says so with a retry instead of spinning, and shows the form once a retry works', async () => {
    const user = userEvent.setup();
    let fail = true;
    const schemas = vi.fn(async () => {
      if (fail) throw new TypeError('Failed to fetch dynamically imported module');
      return { schema: { type: 'object', properties: { name: { type: 'string', title: 'Nombre del estado' } } }, uiSchema: {}, validateFns: {} };
    });
    const entityClient = { paginate: vi.fn(async () => ({ items: rows(1, 2), total: 2 })) };
    render(
      <RuntimeHarness services={{ entityClients: { bottracestatus: entityClient }, forms: { bottracestatus: schemas } }} can={() => true}>
        <CrudPage model={model} />
      </RuntimeHarness>,
    );
    await screen.findByText('Row 1.0');
    await user.click(screen.getByRole('button', { name: 'Crear' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/No se pudo cargar el formulario/)).toBeInTheDocument();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(within(dialog).queryByText(/No se pudo cargar el formulario/)).toBeNull());
    expect(schemas.mock.calls.length).toBeGreaterThanOrEqual(2);
  });
});
