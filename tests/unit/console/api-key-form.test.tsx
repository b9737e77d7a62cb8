// Issue 27 (smaller defects): the API-key form showed an always-empty disabled "Secreto", and on
// create disabled owner pickers the server fills in.
import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { CrudDialog } from '../../../runtime/crud/crud-dialog.tsx';
import { crudDialogReducer, initialCrudDialogState, type CrudOperation } from '../../../runtime/core/crud-dialog-state.ts';
import { entities } from '../../../src/generated/entities.ts';
import { formLoaders as forms } from '../../../src/generated/forms.ts';
import { ApiKeyForm } from '../../../src/overrides/userApiKey/api-key-form.tsx';
import es from '../../../locales/es.json';
import { RuntimeHarness, installBrowserShims, testI18n } from '../runtime/runtime-test-harness.tsx';

beforeAll(() => {
  installBrowserShims();
  testI18n.addResourceBundle('es', 'translation', es, true, false);
});

const owner = { _id: 'u1', username: 'ana' };
const users = { find: async () => [owner], findByIds: async () => [owner], findById: async () => owner, search: async () => [owner] };

function open(operation: CrudOperation) {
  const row = operation === 'create' ? null : { _id: 'k1', name: 'CRM', ipv4: [], ipv6: [], user: owner, createdBy: owner };
  const state = crudDialogReducer(initialCrudDialogState, { type: 'open', operation, row, model: entities.userApiKey });
  render(
    <RuntimeHarness services={{ entities, forms, entityClients: { user: users } as never }}>
      <CrudDialog model={entities.userApiKey} state={state} onSubmit={() => undefined} onCancel={() => undefined} form={ApiKeyForm} />
    </RuntimeHarness>,
  );
}

describe('API-key dialog', () => {
  it.each(['create', 'view', 'edit'] as const)('%s: never an always-empty Secreto', async (operation) => {
    open(operation);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Nombre', {}, { timeout: 10_000 });
    expect(within(dialog).queryByText('Secreto')).toBeNull();
  });

  it('create: no owner pickers (the server sets them); view: who owns and created the key', async () => {
    open('create');
    let dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Nombre', {}, { timeout: 10_000 });
    expect(within(dialog).queryByText('Usuario')).toBeNull();
    expect(within(dialog).queryByText('Creada por')).toBeNull();
    document.body.innerHTML = '';
    open('view');
    dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Usuario', {}, { timeout: 10_000 });
    expect(within(dialog).getByText('Creada por')).toBeInTheDocument();
  });
});
