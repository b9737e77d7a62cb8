// A link to one record of any generic list (runtime/crud/linked-record.ts): /crud/<entity>?edit=<id>
// opens it in the edit dialog (the view dialog for who may only view), ?view=<id> in the view
// dialog; a record that cannot be read says so instead of opening nothing. Closing the dialog a
// link opened takes the link out of the address, through the router and in place, so a reload
// shows the list.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Notifications } from '@mantine/notifications';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router-dom';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { linkedRecordFromSearch, searchWithoutLinkedRecord } from '../../../runtime/crud/linked-record.ts';
import CrudRoutePage from '../../../src/app/crud-route-page.tsx';
import { toApiError } from '../../../runtime/transport/to-api-error.ts';
import { entities } from '../../../src/generated/entities.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';
import { compileValidateFns } from './compile-validate-fns.ts';

beforeAll(installBrowserShims);
afterEach(() => window.history.replaceState(null, '', '/'));

const model = entities.bottracestatus;
const record = { _id: 's1', name: 'ok', description: 'Respondida', createdAt: '2024-01-01T00:00:00.000Z' };
const WAIT = { timeout: 10_000 };

function openAt(search: string, can: (permission: string | null | undefined) => boolean = () => true, found: 'yes' | 'missing' = 'yes') {
  window.history.replaceState(null, '', `/crud/bottracestatus${search}`);
  const entityClient = {
    paginate: vi.fn(async () => ({ items: [record], total: 1 })),
    findById: vi.fn(async ({ id }: { id: string }) => {
      if (found === 'missing') throw toApiError({ kind: 'http', status: 404, body: { message: `bottracestatus ${id} not found` } });
      return record;
    }),
  };
  render(
    <RuntimeHarness services={{ entityClients: { bottracestatus: entityClient }, forms: { bottracestatus: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) } }} can={can}>
      <Notifications />
      <CrudPage model={model} />
    </RuntimeHarness>,
  );
  return entityClient;
}

describe('deep links to one record of a generic list', () => {
  it('?edit=<id> opens that record in the edit dialog', async () => {
    const entityClient = openAt('?edit=s1');
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    expect(dialog).toHaveAccessibleName(/^Editar /);
    expect(entityClient.findById).toHaveBeenCalledWith(expect.objectContaining({ id: 's1' }));
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeInTheDocument();
  });

  it('?edit=<id> for a caller who may only view opens the view dialog instead', async () => {
    openAt('?edit=s1', (permission) => permission === 'bottracestatus:view');
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    expect(dialog).toHaveAccessibleName(/^Ver /);
    expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
  });

  it('?view=<id> opens the view dialog', async () => {
    openAt('?view=s1');
    expect(await screen.findByRole('dialog', {}, WAIT)).toHaveAccessibleName(/^Ver /);
  });

  it('a record that cannot be read is reported, and no dialog opens', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    openAt('?edit=gone', () => true, 'missing');
    expect(await screen.findByText(/No se pudo abrir el registro del enlace/, {}, WAIT)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('reads edit before view, ignores empty and oversized ids', () => {
    expect(linkedRecordFromSearch('?view=a&edit=b')).toEqual({ operation: 'edit', id: 'b' });
    expect(linkedRecordFromSearch('?view=a')).toEqual({ operation: 'view', id: 'a' });
    expect(linkedRecordFromSearch('?edit=&filter.name=x')).toBeNull();
    expect(linkedRecordFromSearch(`?edit=${'x'.repeat(201)}`)).toBeNull();
    expect(linkedRecordFromSearch('')).toBeNull();
  });

  it('drops only the link from a query string, keeping the rest as written', () => {
    expect(searchWithoutLinkedRecord('?page=2&edit=s1&filter.name=a%20b&sort=name')).toBe('?page=2&filter.name=a%20b&sort=name');
    expect(searchWithoutLinkedRecord('?view=a&edit=b')).toBe('');
    expect(searchWithoutLinkedRecord('?%65dit=x&q=%E0%A4%A')).toBe('?q=%E0%A4%A');
    expect(searchWithoutLinkedRecord('?editor=1')).toBe('?editor=1');
    expect(searchWithoutLinkedRecord('')).toBe('');
  });
});

/** The router's own idea of the query string, shown so a test can see the router was told. */
function RouterSearch() {
  return <output data-testid="router-search">{useLocation().search}</output>;
}

const FORM_SCHEMA = { type: 'object', properties: { name: { type: 'string', title: 'Nombre del estado' } } };
const forms = { bottracestatus: async () => ({ schema: FORM_SCHEMA, uiSchema: {}, validateFns: compileValidateFns(FORM_SCHEMA) }) };

/** The page as the app mounts it (src/app/crud-route-page.tsx), under the browser's router. */
function openInAppAt(search: string) {
  window.history.replaceState(null, '', `/crud/bottracestatus${search}`);
  const entityClient = {
    paginate: vi.fn(async () => ({ items: [record], total: 1 })),
    findById: vi.fn(async () => record),
    update: vi.fn(async () => record),
  };
  const view = render(
    <RuntimeHarness services={{ entityClients: { bottracestatus: entityClient }, forms }}>
      <Notifications />
      <BrowserRouter>
        <Routes>
          <Route path="/crud/bottracestatus" element={<CrudRoutePage model={model} />} />
        </Routes>
        <RouterSearch />
      </BrowserRouter>
    </RuntimeHarness>,
  );
  return { entityClient, unmount: view.unmount };
}

const OTHER_PARAMETERS = '?page=2&filter.name=ok&sort=name';

describe('closing the dialog a link opened', () => {
  const closings: { name: string; search: string; close: (dialog: HTMLElement) => unknown }[] = [
    { name: 'Cancelar', search: '?page=2&edit=s1&filter.name=ok&sort=name', close: (dialog) => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' })) },
    { name: 'Escape', search: '?page=2&edit=s1&filter.name=ok&sort=name', close: (dialog) => fireEvent.keyDown(dialog, { key: 'Escape' }) },
    { name: 'the × button', search: '?page=2&view=s1&filter.name=ok&sort=name', close: (dialog) => fireEvent.click(dialog.querySelector('.mantine-Modal-close')!) },
    { name: 'Cerrar (view)', search: '?page=2&filter.name=ok&view=s1&sort=name', close: (dialog) => fireEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' })) },
    {
      name: 'a successful save',
      search: '?page=2&edit=s1&filter.name=ok&sort=name',
      close: (dialog) => fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' })),
    },
  ];

  it.each(closings)('$name takes ?edit= / ?view= out of the address in place, keeping the rest, and a reload shows no dialog', async ({ name, search, close }) => {
    const { entityClient, unmount } = openInAppAt(search);
    const historyLength = window.history.length;
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    if (name === 'a successful save') await within(dialog).findByRole('textbox', { name: 'Nombre del estado' }, WAIT);
    close(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    await waitFor(() => expect(window.location.search).toBe(OTHER_PARAMETERS), WAIT);
    expect(window.location.pathname).toBe('/crud/bottracestatus');
    // Through the router (it knows the new query string), replacing the entry rather than adding one.
    await waitFor(() => expect(screen.getByTestId('router-search')).toHaveTextContent(OTHER_PARAMETERS), WAIT);
    expect(window.history.length).toBe(historyLength);
    if (name === 'a successful save') expect(entityClient.update).toHaveBeenCalledWith(expect.objectContaining({ id: 's1' }));

    // A reload: the page mounts again at the address as it is now.
    unmount();
    const again = openInAppAt(window.location.search);
    await screen.findByRole('table', {}, WAIT);
    await waitFor(() => expect(again.entityClient.paginate).toHaveBeenCalled(), WAIT);
    expect(again.entityClient.findById).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  }, 30_000);

  it('a dialog opened from a row, not from a link, leaves the address alone', async () => {
    openInAppAt(OTHER_PARAMETERS);
    const view = await screen.findAllByRole('button', { name: 'Ver' }, WAIT);
    fireEvent.click(view[0]);
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    expect(window.location.search).toBe(OTHER_PARAMETERS);
  }, 30_000);
});
