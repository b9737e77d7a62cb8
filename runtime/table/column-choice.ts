import { createContext, useCallback, useContext, useMemo, useState } from 'react';

/**
 * Whose column choice a table remembers: the app gives the signed-in user's id
 * (src/app/crud-route-page.tsx), so two people sharing a browser keep their own columns. The
 * runtime on its own (its dom tests) remembers per browser.
 */
export const ColumnChoiceUserContext = createContext<string | null>(null);

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

export function columnChoiceKey(user: string | null, entity: string): string {
  return `forja.columns.${user ?? '-'}.${entity}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // A browser blocking storage: the choice holds for this page only.
    return null;
  }
}

/** The hidden columns saved under `key`, keeping only names the table still has. */
export function readHiddenColumns(store: Storage | null, key: string, available: readonly string[]): string[] {
  try {
    const saved: unknown = JSON.parse(store?.getItem(key) ?? '[]');
    return Array.isArray(saved) ? saved.filter((name): name is string => typeof name === 'string' && available.includes(name)) : [];
  } catch {
    return [];
  }
}

/**
 * The columns a user hid on one entity's table, remembered in localStorage per user and entity.
 * The last shown column cannot be hidden: a table without columns would show nothing to act on.
 */
export function useHiddenColumns(entity: string, available: readonly string[]): { hidden: ReadonlySet<string>; toggle: (name: string) => void } {
  const user = useContext(ColumnChoiceUserContext);
  const key = columnChoiceKey(user, entity);
  const [state, setState] = useState(() => ({ key, hidden: readHiddenColumns(storage(), key, available) }));
  // Another user or entity on the same mounted table reads its own choice.
  const hidden = state.key === key ? state.hidden : readHiddenColumns(storage(), key, available);
  const toggle = useCallback(
    (name: string) => {
      const next = hidden.includes(name) ? hidden.filter((column) => column !== name) : [...hidden, name];
      if (available.every((column) => next.includes(column))) return;
      setState({ key, hidden: next });
      try {
        storage()?.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or disabled: the choice holds until the page is left.
      }
    },
    [hidden, available, key],
  );
  return { hidden: useMemo(() => new Set(hidden), [hidden]), toggle };
}
