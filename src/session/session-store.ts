import { isTokenValid } from './jwt.ts';
import type { SessionState, SessionUser, Setting } from './session-types.ts';

/** localStorage keys of the saved client state (docs/product-rules.md#entities). */
export const STORAGE_KEYS = { auth: 'forja.auth', darkMode: 'forja.darkMode', settings: 'forja.settings' } as const;

export interface SessionStore {
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  /** Stores a token (and the user once loaded). */
  setToken(token: string): void;
  setUser(user: SessionUser | null): void;
  setDarkMode(darkMode: boolean): void;
  setSettings(settings: Setting[]): void;
  /** Clears token, user and the settings list; dark mode is a device preference and stays. */
  clear(): void;
  /** Signed in: a token with an unexpired exp claim. */
  isAuthenticated(nowMs?: number): boolean;
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

function read<T>(storage: Storage | null, key: string, fallback: T): T {
  if (!storage) return fallback;
  try {
    const raw = storage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

/**
 * A tiny external store (useSyncExternalStore-friendly: immutable snapshots) persisted in
 * localStorage. Hand-written because it is ~60 lines and the app needs nothing zustand adds.
 */
export function createSessionStore(storage: Storage | null): SessionStore {
  const auth = read<{ token: string | null; user: SessionUser | null }>(storage, STORAGE_KEYS.auth, { token: null, user: null });
  let state: SessionState = {
    token: typeof auth.token === 'string' ? auth.token : null,
    user: auth.user ?? null,
    darkMode: read<boolean>(storage, STORAGE_KEYS.darkMode, true) !== false,
    settings: read<Setting[]>(storage, STORAGE_KEYS.settings, []),
  };
  const listeners = new Set<() => void>();

  function update(patch: Partial<SessionState>) {
    state = { ...state, ...patch };
    try {
      if ('token' in patch || 'user' in patch) {
        if (state.token || state.user) storage?.setItem(STORAGE_KEYS.auth, JSON.stringify({ token: state.token, user: state.user }));
        else storage?.removeItem(STORAGE_KEYS.auth);
      }
      if ('darkMode' in patch) storage?.setItem(STORAGE_KEYS.darkMode, JSON.stringify(state.darkMode));
      if ('settings' in patch) storage?.setItem(STORAGE_KEYS.settings, JSON.stringify(state.settings));
    } catch {
      // Storage full or disabled: the session still works for this tab.
    }
    for (const listener of [...listeners]) listener();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setToken: (token) => update({ token }),
    setUser: (user) => update({ user }),
    setDarkMode: (darkMode) => update({ darkMode }),
    setSettings: (settings) => update({ settings }),
    clear: () => update({ token: null, user: null, settings: [] }),
    isAuthenticated: (nowMs) => isTokenValid(state.token, nowMs),
  };
}

/**
 * localStorage, or null where reading it throws: a chat page inside another site's iframe (the
 * widget) when the browser blocks third-party storage.
 */
function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The console's one session. */
export const sessionStore = createSessionStore(browserStorage());
