// Issue 27 (smaller defects): the avatar's error stayed on after a later upload that worked.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { ConsoleHarness } from './console-harness.tsx';

const mocks = vi.hoisted(() => ({ uploadAvatar: vi.fn(), reloadUser: vi.fn() }));

vi.mock('../../../src/session/session.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/session/session.ts')>();
  return { ...original, session: { ...original.session, reloadUser: mocks.reloadUser }, api: { ...original.api, uploadAvatar: mocks.uploadAvatar } };
});

const { ProfileCard } = await import('../../../src/identity/profile-card.tsx');

const png = (name = 'me.png') => new File(['x'], name, { type: 'image/png' });

beforeEach(() => {
  mocks.uploadAvatar.mockReset();
  mocks.reloadUser.mockReset().mockResolvedValue(null);
});

describe('profile avatar', () => {
  it.each([
    ['a refused upload', () => mocks.uploadAvatar.mockRejectedValueOnce(new ApiError('error.validation', 'validation', 400, {}))],
    ['a file of the wrong type', () => undefined],
  ])('clears the error of %s once a later upload works', async (_case, arrange) => {
    const user = userEvent.setup({ applyAccept: false });
    arrange();
    mocks.uploadAvatar.mockResolvedValue({});
    const { container } = render(
      <ConsoleHarness>
        <ProfileCard />
      </ConsoleHarness>,
    );
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, _case === 'a file of the wrong type' ? new File(['x'], 'me.gif', { type: 'image/gif' }) : png());
    expect(await screen.findByTestId('form-error')).toBeInTheDocument();
    await user.upload(container.querySelector('input[type="file"]') as HTMLInputElement, png('good.png'));
    await waitFor(() => expect(mocks.reloadUser).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByTestId('form-error')).toBeNull());
  });

  it('a later failure replaces the message; nothing clears it but a success', async () => {
    const user = userEvent.setup({ applyAccept: false });
    mocks.uploadAvatar.mockRejectedValue(new ApiError('error.validation', 'validation', 400, {}));
    const { container } = render(
      <ConsoleHarness>
        <ProfileCard />
      </ConsoleHarness>,
    );
    await user.upload(container.querySelector('input[type="file"]') as HTMLInputElement, png());
    await screen.findByTestId('form-error');
    await user.upload(container.querySelector('input[type="file"]') as HTMLInputElement, png('again.png'));
    await waitFor(() => expect(mocks.uploadAvatar).toHaveBeenCalledTimes(2));
    expect(screen.getByTestId('form-error')).toBeInTheDocument();
  });
});
