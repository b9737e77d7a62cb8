import { useSyncExternalStore } from 'react';

/** The user whose password the admin is changing; a row action opens it, the user page renders it. */
export interface PasswordTarget {
  id: string;
  username: string;
}

let target: PasswordTarget | null = null;
const listeners = new Set<() => void>();

export const passwordDialog = {
  open(next: PasswordTarget) {
    target = next;
    listeners.forEach((listener) => listener());
  },
  close() {
    target = null;
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => target,
};

export function usePasswordTarget(): PasswordTarget | null {
  return useSyncExternalStore(passwordDialog.subscribe, passwordDialog.get, passwordDialog.get);
}
