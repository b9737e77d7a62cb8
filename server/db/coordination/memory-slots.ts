import type { SlotStore } from './coordination.ts';

/** Slots counted in this process: exact when it is the only one (SQLite). */
export function memorySlots(): SlotStore {
  const running = new Map<string, number>();
  return {
    async take(name, max) {
      const now = running.get(name) ?? 0;
      if (now >= max) return null;
      running.set(name, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(name) ?? 1) - 1;
        if (left <= 0) running.delete(name);
        else running.set(name, left);
      };
    },
  };
}
