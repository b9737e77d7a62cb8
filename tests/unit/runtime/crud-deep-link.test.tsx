// A link to one record of any generic list (runtime/crud/linked-record.ts): /crud/<entity>?edit=<id>
// opens it in the edit dialog (the view dialog for who may only view), ?view=<id> in the view
// dialog; a record that cannot be read says so instead of opening nothing.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Notifications } from '@mantine/notifications';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { linkedRecordFromSearch } from '../../../runtime/crud/linked-record.ts';
import { toApiError } from '../../../runtime/transport/to-api-error.ts';
import { entities } from '../../../src/generated/entities.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);
afterEach(() => window.history.replaceState(null, '', '/'));

const model = entities.bottracestatus;
const record = { _id: 's1', name: 'ok', description: 'Respondida', createdAt: '2024-01-01T00:00:00.000Z' };
const WAIT = { timeout: 10_000 };

function openAt(search: string, can: (permission: string | null | undefined) => boolean = () => true, found: 'yes' | 'missing' = 'yes') {
  window.history.replaceState(null, '', `/crud/bottracestatus${search}`);
  const provider = {
    paginate: vi.fn(async () => ({ items: [record], total: 1 })),
    findById: vi.fn(async ({ id }: { id: string }) => {
      if (found === 'missing') throw toApiError({ kind: 'http', status: 404, body: { message: `bottracestatus ${id} not found` } });
      return record;
    }),
  };
  render(
    <RuntimeHarness services={{ providers: { bottracestatus: provider }, forms: { bottracestatus: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) } }} can={can}>
      <Notifications />
      <CrudPage model={model} />
    </RuntimeHarness>,
  );
  return provider;
}

describe('deep links to one record of a generic list', () => {
  it('?edit=<id> opens that record in the edit dialog', async () => {
    const provider = openAt('?edit=s1');
    const dialog = await screen.findByRole('dialog', {}, WAIT);
    expect(dialog).toHaveAccessibleName(/^Editar /);
    expect(provider.findById).toHaveBeenCalledWith({ id: 's1' });
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
});
