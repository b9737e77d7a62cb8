// Issue 27 (smaller defects): a session that expired landed on /login with no word why.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createSessionStore } from '../../../src/session/session-store.ts';
import { createSessionActions } from '../../../src/session/session-actions.ts';
import { forgetSignOutReason, rememberSignOutReason, signOutReason } from '../../../src/session/sign-out-reason.ts';
import type { IdentityApi } from '../../../src/session/identity-api.ts';
import { fakeToken, inOneHour, memoryStorage } from './helpers.ts';
import { ConsoleHarness } from './console-harness.tsx';

const { default: LoginPage } = await import('../../../src/identity/login-page.tsx');

const user = { id: 'u1', username: 'ana', role: { id: 'r1', name: 'R', permissions: [] } };
const api = (token: string) => ({ login: vi.fn(async () => ({ accessToken: token })), me: vi.fn(async () => user) }) as unknown as IdentityApi;
const seconds = (from: number) => Math.floor(Date.now() / 1000) + from;

afterEach(() => {
  vi.useRealTimers();
  forgetSignOutReason();
});

describe('why the console signed someone out', () => {
  it('the token running out while the console is open: expired', async () => {
    vi.useFakeTimers();
    const token = fakeToken({ sub: 'u1', exp: seconds(2) });
    const actions = createSessionActions(createSessionStore(memoryStorage()), api(token));
    await actions.login('ana', 'pw');
    expect(signOutReason()).toBeNull();
    vi.setSystemTime(Date.now() + 3_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(signOutReason()).toBe('expired');
  });

  it('opening the console with an expired token: expired; a 401 handler can say the same', async () => {
    const store = createSessionStore(memoryStorage());
    store.setToken(fakeToken({ sub: 'u1', exp: seconds(-10) }));
    store.setUser(user);
    await createSessionActions(store, api('x')).restore();
    expect(signOutReason()).toBe('expired');
  });

  it('signing out by hand, or signing in again, leaves no reason', async () => {
    const token = fakeToken({ sub: 'u1', exp: inOneHour() });
    const actions = createSessionActions(createSessionStore(memoryStorage()), api(token));
    rememberSignOutReason('expired');
    await actions.login('ana', 'pw');
    expect(signOutReason()).toBeNull();
    rememberSignOutReason('expired');
    actions.signOut();
    expect(signOutReason()).toBeNull();
    // Nobody was signed in: no reason to give.
    actions.signOut('expired');
    expect(signOutReason()).toBeNull();
  });

  it.each([[true], [false]])('the sign-in page says the session expired (reason left: %s)', async (left) => {
    if (left) rememberSignOutReason('expired');
    render(
      <ConsoleHarness path="/login">
        <LoginPage />
      </ConsoleHarness>,
    );
    await screen.findByTestId('login-submit');
    await act(async () => undefined);
    if (left) expect(screen.getByTestId('login-session-expired')).toHaveTextContent('Tu sesión ha caducado');
    else expect(screen.queryByTestId('login-session-expired')).toBeNull();
  });
});
