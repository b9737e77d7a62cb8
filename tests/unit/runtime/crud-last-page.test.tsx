// Issue 27 (smaller defects): deleting the only row of the last page showed an empty page; the
// list now moves to the page that is the last one after the delete.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { pageInRange } from '../../../runtime/crud/page-in-range.ts';
import { entities } from '../../../src/generated/entities.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);

describe('pageInRange', () => {
  it('keeps a page that still exists, else takes the last one; page 1 when nothing is left', () => {
    expect(pageInRange(2, 10, undefined)).toBe(2);
    expect(pageInRange(2, 10, 11)).toBe(2);
    expect(pageInRange(2, 10, 10)).toBe(1);
    expect(pageInRange(5, 10, 31)).toBe(4);
    expect(pageInRange(3, 5, 0)).toBe(1);
    expect(pageInRange(1, 10, 0)).toBe(1);
  });
});

describe('CrudPage after deleting the only row of the last page', () => {
  it.each([11, 21])('shows the new last page, not an empty one (%i rows)', { timeout: 20_000 }, async (initial) => {
    const model = entities.bottracestatus;
    let stored = Array.from({ length: initial }, (_, index) => ({ _id: `s${index}`, name: `Estado ${index}`, description: '', createdAt: '2024-01-01T00:00:00.000Z' }));
    const entityClient = {
      paginate: vi.fn(async ({ page = 1, limit = 10 }: { page?: number; limit?: number }) => ({ items: stored.slice((page - 1) * limit, page * limit), total: stored.length })),
      delete: vi.fn(async ({ id }: { id: string }) => {
        stored = stored.filter((row) => row._id !== id);
        return true;
      }),
    };
    render(
      <RuntimeHarness services={{ entityClients: { bottracestatus: entityClient }, forms: { bottracestatus: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) } }}>
        <CrudPage model={model} />
      </RuntimeHarness>,
    );
    const user = userEvent.setup();
    await screen.findByText('Estado 0');
    const lastPage = Math.ceil(initial / 10);
    await user.click(screen.getByRole('button', { name: `Página ${lastPage}` }));
    const only = await screen.findByText(`Estado ${initial - 1}`);
    const row = only.closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = await within(dialog).findByRole('button', { name: 'Eliminar' });
    // Enabled once the dialog's form has loaded.
    await waitFor(() => expect(confirm).toBeEnabled(), { timeout: 10_000 });
    await user.click(confirm);
    await waitFor(() => expect(entityClient.delete).toHaveBeenCalledWith(expect.objectContaining({ id: `s${initial - 1}` })));
    // The page before is shown, with its rows.
    expect(await screen.findByText(`Estado ${initial - 2}`)).toBeInTheDocument();
    expect(entityClient.paginate.mock.calls.at(-1)?.[0]).toMatchObject({ page: lastPage - 1 });
  });
});
