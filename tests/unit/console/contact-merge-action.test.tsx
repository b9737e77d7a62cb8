import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IconGitMerge } from '@tabler/icons-react';
import type { Can } from '../../../runtime/permissions/permissions-context.tsx';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { entities } from '../../../src/generated/entities.ts';
import { installBrowserShims, RuntimeHarness } from '../runtime/runtime-test-harness.tsx';

const mocks = vi.hoisted(() => ({ call: vi.fn(), search: vi.fn() }));

vi.mock('../../../src/session/api-client.ts', () => ({ restApi: { call: mocks.call } }));

const { MergeContactAction } = await import('../../../src/overrides/contact/merge-contact-action.tsx');

const source = { _id: 'c-new', name: 'Lucía', email: 'lucia@example.com' };
const contacts = [source, { _id: 'c-real', name: 'Lucía Real', email: 'lucia@example.com' }];

function renderAction(can: Can, reload = vi.fn()) {
  render(
    <RuntimeHarness services={{ entityClients: { contact: { search: mocks.search } as never } }} can={can}>
      <MergeContactAction row={source} model={entities.contact} reload={reload} label="Fusionar" icon={IconGitMerge} />
    </RuntimeHarness>,
  );
  return reload;
}

beforeAll(() => installBrowserShims());
beforeEach(() => {
  mocks.call.mockReset();
  mocks.search.mockReset();
  mocks.search.mockResolvedValue(contacts);
});

async function pickTarget(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId('contact-merge'));
  await user.click(await screen.findByTestId('contact-merge-target'));
  const option = await screen.findByRole('option', { name: 'Lucía Real <lucia@example.com>' });
  // The contact being merged is never offered as its own target.
  expect(screen.queryByRole('option', { name: 'Lucía <lucia@example.com>' })).toBeNull();
  await user.click(option);
  expect(screen.getByTestId('contact-merge-confirm')).toHaveTextContent('pasarán a «Lucía Real <lucia@example.com>»');
}

describe('contact merge row action', () => {
  it('is hidden without contact update and delete', () => {
    renderAction((permission) => permission === 'contact:update' || permission === 'contact:view');
    expect(screen.queryByTestId('contact-merge')).toBeNull();
  });

  it('merges into the chosen contact and reloads the list', async () => {
    const user = userEvent.setup();
    mocks.call.mockResolvedValue({ into: 'c-real', movedConversations: 2, addedMemory: 0 });
    const reload = renderAction(() => true);
    await pickTarget(user);
    await user.click(screen.getByTestId('contact-merge-submit'));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(mocks.call).toHaveBeenCalledWith({ method: 'POST', path: '/api/contacts/c-new/merge', json: { into: 'c-real' } });
  });

  it("shows the server's reason and keeps the dialog open", async () => {
    const user = userEvent.setup();
    mocks.call.mockRejectedValue(new ApiError('error.validation', 'validation', 400, { memory: ['validation.maxItems'] }, { i18nMessage: 'error.contactMerge.memoryLimit' }));
    const reload = renderAction(() => true);
    await pickTarget(user);
    await user.click(screen.getByTestId('contact-merge-submit'));
    expect(await screen.findByTestId('contact-merge-error')).toHaveTextContent('límite de entradas de memoria');
    expect(reload).not.toHaveBeenCalled();
  });
});
