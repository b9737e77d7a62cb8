import type { ByteLedger } from './coordination.ts';

/** Spending kept in this process: exact when it is the only one (SQLite). */
export function memoryLedger(clock: () => number = Date.now): ByteLedger {
  const spent = new Map<string, { at: number; bytes: number }[]>();
  return {
    async used(key, windowMs) {
      const now = clock();
      const entries = (spent.get(key) ?? []).filter((e) => now - e.at < windowMs);
      if (entries.length === 0) spent.delete(key);
      else spent.set(key, entries);
      return entries.reduce((sum, e) => sum + e.bytes, 0);
    },
    async record(key, bytes) {
      const entries = spent.get(key) ?? [];
      entries.push({ at: clock(), bytes });
      spent.set(key, entries);
    },
  };
}
