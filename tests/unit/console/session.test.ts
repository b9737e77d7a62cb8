import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeJwtPayload, isTokenValid } from '../../../src/session/jwt.ts';
import { createSessionStore, STORAGE_KEYS } from '../../../src/session/session-store.ts';
import { createSessionActions } from '../../../src/session/session-actions.ts';
import { onSessionEvent, type SessionEvent } from '../../../src/session/session-events.ts';
import { userCan } from '../../../src/session/permissions.ts';
import type { IdentityApi } from '../../../src/session/identity-api.ts';
import { fakeToken, inOneHour, memoryStorage } from './helpers.ts';

const admin = { id: 'u1', username: 'admin', role: { id: 'r1', name: 'Admin', permissions: ['bot:manage', 'user:manage'] } };

function fakeApi(overrides: Partial<IdentityApi> = {}): IdentityApi {
  return {
    login: vi.fn(async () => ({ accessToken: fakeToken({ sub: 'u1', exp: inOneHour() }) })),
    me: vi.fn(async () => admin),
    googleLogin: vi.fn(async () => ({ accessToken: fakeToken({ sub: 'u1', exp: inOneHour() }) })),
    ...overrides,
  } as unknown as IdentityApi;
}

const events: SessionEvent[] = [];
const stop = onSessionEvent((event) => events.push(event));
afterEach(() => {
  events.length = 0;
  vi.useRealTimers();
});
void stop;

describe('JWT expiry (docs/product-rules.md#states)', () => {
  it('is valid only with an exp claim in the future', () => {
    expect(isTokenValid(fakeToken({ exp: inOneHour() }))).toBe(true);
    expect(isTokenValid(fakeToken({ exp: Math.floor(Date.now() / 1000) - 1 }))).toBe(false);
    expect(isTokenValid(fakeToken({ sub: 'no-exp' }))).toBe(false);
    expect(isTokenValid('not-a-jwt')).toBe(false);
    expect(isTokenValid(null)).toBe(false);
  });
  it('decodes base64url payloads with non-ASCII text', () => {
    expect(decodeJwtPayload(fakeToken({ name: 'Ñandú', exp: 1 }))?.name).toBe('Ñandú');
  });
});

describe('session store', () => {
  it('persists token, user, dark mode (default true) and settings in storage', () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    expect(store.getState().darkMode).toBe(true);
    store.setToken('t');
    store.setUser(admin);
    store.setDarkMode(false);
    const again = createSessionStore(storage);
    expect(again.getState()).toMatchObject({ token: 't', user: admin, darkMode: false });
    again.clear();
    expect(storage.data.has(STORAGE_KEYS.auth)).toBe(false);
    expect(createSessionStore(storage).getState()).toMatchObject({ token: null, user: null, darkMode: false });
  });

  it('is authenticated only with an unexpired token', () => {
    const store = createSessionStore(memoryStorage());
    store.setToken(fakeToken({ exp: Math.floor(Date.now() / 1000) - 10 }));
    expect(store.isAuthenticated()).toBe(false);
    store.setToken(fakeToken({ exp: inOneHour() }));
    expect(store.isAuthenticated()).toBe(true);
  });
});

describe('session actions', () => {
  it('login stores the token, loads the user and emits login-success', async () => {
    const store = createSessionStore(memoryStorage());
    const api = fakeApi();
    await createSessionActions(store, api).login('  admin ', 'secret');
    expect(api.login).toHaveBeenCalledWith('admin', 'secret');
    expect(store.isAuthenticated()).toBe(true);
    expect(store.getState().user).toEqual(admin);
    expect(events).toEqual(['login-success']);
  });

  it('a token without a valid exp is refused and signs out', async () => {
    const store = createSessionStore(memoryStorage());
    const api = fakeApi({ login: vi.fn(async () => ({ accessToken: fakeToken({ sub: 'x' }) })) } as Partial<IdentityApi>);
    await expect(createSessionActions(store, api).login('a', 'b')).rejects.toThrow();
    expect(store.getState().token).toBeNull();
    expect(events).not.toContain('login-success');
  });

  it('restore drops an expired stored token and keeps dark mode', async () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    store.setDarkMode(false);
    store.setToken(fakeToken({ exp: Math.floor(Date.now() / 1000) - 5 }));
    store.setUser(admin);
    const api = fakeApi();
    await createSessionActions(store, api).restore();
    expect(store.getState()).toMatchObject({ token: null, user: null, darkMode: false });
    expect(api.me).not.toHaveBeenCalled();
    expect(events).toEqual(['logout']);
  });

  it('restore reloads the user behind a valid token', async () => {
    const store = createSessionStore(memoryStorage());
    store.setToken(fakeToken({ exp: inOneHour() }));
    const api = fakeApi();
    await createSessionActions(store, api).restore();
    expect(api.me).toHaveBeenCalledOnce();
    expect(store.getState().user).toEqual(admin);
  });

  it('signs out by itself when the token expires', async () => {
    vi.useFakeTimers();
    const store = createSessionStore(memoryStorage());
    const actions = createSessionActions(store, fakeApi({ login: vi.fn(async () => ({ accessToken: fakeToken({ exp: Math.floor(Date.now() / 1000) + 60 }) })) } as Partial<IdentityApi>));
    await actions.login('a', 'b');
    expect(store.isAuthenticated()).toBe(true);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(store.getState().token).toBeNull();
    expect(events).toEqual(['login-success', 'logout']);
  });

  it('Google failure emits login-failed and logs "Error en el login"', async () => {
    const store = createSessionStore(memoryStorage());
    const log = { error: vi.fn() };
    const api = fakeApi({ googleLogin: vi.fn(async () => Promise.reject(new Error('nope'))) } as Partial<IdentityApi>);
    await expect(createSessionActions(store, api, log).loginWithGoogle('cred')).rejects.toThrow('nope');
    expect(events).toEqual(['login-failed']);
    expect(log.error).toHaveBeenCalledWith('Error en el login', expect.any(Error));
  });
});

describe('can(permission) (docs/product-rules.md#permissions)', () => {
  it('is an exact match on the role permissions, false without a user or role', () => {
    expect(userCan(admin, 'bot:manage')).toBe(true);
    expect(userCan(admin, 'bot:man')).toBe(false);
    expect(userCan(admin, 'setting:manage')).toBe(false);
    expect(userCan(null, 'bot:manage')).toBe(false);
    expect(userCan({ id: 'x', username: 'x', role: null }, 'bot:manage')).toBe(false);
  });
});
