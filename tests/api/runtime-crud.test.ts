// @vitest-environment jsdom
// The generic CRUD page for a real generated model against the real API server (in-process).
import '@testing-library/jest-dom/vitest';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { CrudPage } from '../../runtime/crud/crud-page.tsx';
import { RestTransport } from '../../runtime/transport/rest-transport.ts';
import { createEntityClients } from '../../src/generated/entity-clients.ts';
import { entities } from '../../src/generated/entities.ts';
import { formLoaders } from '../../src/generated/forms.ts';
import { LazyEntityForm } from '../../runtime/form/lazy-entity-form.ts';
import { RuntimeHarness, installBrowserShims } from '../unit/runtime/runtime-test-harness.tsx';

let server: TestServer;

beforeAll(async () => {
  installBrowserShims();
  // The dialog shows a loader until the form's code (RJSF, widgets) and its schemas are imported:
  // 2-3 s of transform on a cold machine, more than findByRole's 1 s. Load them here, as the
  // page's hover prefetch does for a person.
  await Promise.all([formLoaders.bottracestatus(), LazyEntityForm.preload()]);
  server = await startTestServer();
  // Start from an empty list: drop the seeded trace statuses.
  for (const status of (await server.get('/api/bot-trace-statuses?limit=100')).body.items) await server.del(`/api/bot-trace-statuses/${status._id}`);
});

afterAll(async () => {
  cleanup();
  await server?.close();
});

function dialog() {
  return within(screen.getByRole('dialog'));
}

describe('CrudPage against the API server', () => {
  it('creates, shows a server validation error on its field, edits, exports and deletes', async () => {
    const user = userEvent.setup();
    const transport = new RestTransport({ baseUrl: server.baseUrl, getToken: () => server.admin.token });
    render(
      createElement(RuntimeHarness, {
        services: { entityClients: createEntityClients(transport), entities, forms: formLoaders, uploader: transport },
        children: createElement(CrudPage, { model: entities.bottracestatus }),
      }),
    );
    expect(await screen.findByText('No hay registros')).toBeInTheDocument();

    // Create
    await user.click(screen.getByRole('button', { name: 'Crear' }));
    await user.type(await dialog().findByRole('textbox', { name: /Nombre/ }), 'Alpha');
    await user.click(dialog().getByRole('button', { name: 'Crear' }));
    expect(await screen.findByText('Alpha', {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The server rejects a duplicate name: general error + the reason on the field, dialog stays open.
    await user.click(screen.getByRole('button', { name: 'Crear' }));
    await user.type(await dialog().findByRole('textbox', { name: /Nombre/ }), 'Alpha');
    await user.click(dialog().getByRole('button', { name: 'Crear' }));
    expect(await dialog().findByRole('alert')).toHaveTextContent('Error de validación');
    expect(dialog().getAllByText('El valor debe ser único').length).toBeGreaterThan(0);
    expect(dialog().getByRole('textbox', { name: /Nombre/ })).toHaveAttribute('aria-invalid', 'true');
    // Cancelar on a changed form asks first (issue 27): discarding closes it.
    await user.click(dialog().getByRole('button', { name: 'Cancelar' }));
    await user.click(await dialog().findByRole('button', { name: 'Descartar cambios' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Edit
    await user.click(screen.getByRole('button', { name: 'Editar' }));
    const name = await dialog().findByRole('textbox', { name: /Nombre/ });
    expect(name).toHaveValue('Alpha');
    await user.clear(name);
    await user.type(name, 'Beta');
    await user.click(dialog().getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Beta', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('Alpha')).toBeNull();

    // Export
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'JSON' }));
    const panel = await screen.findByLabelText('Exportaciones');
    await waitFor(() => expect(within(panel).getByRole('link')).toHaveAttribute('href', expect.stringContaining('/')));
    expect(within(panel).getAllByRole('cell')[1]).toHaveTextContent('1');

    // Delete
    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    await user.click(await dialog().findByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('No hay registros', {}, { timeout: 5000 })).toBeInTheDocument();
    // The delete is optimistic (runtime/core/use-delete-controller.ts): the row leaves the list
    // before the server answers; the dialog closes once it has.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await server.get('/api/bot-trace-statuses')).body.total).toBe(0);
  });
});
