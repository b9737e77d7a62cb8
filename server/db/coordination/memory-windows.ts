import type { WindowCount } from './coordination.ts';

/** The in-process windows: one counter per key, forgotten once its window is over. */
export function memoryWindows(windowMs: number, now: () => number): (key: string) => Promise<WindowCount> {
  const windows = new Map<string, WindowCount>();
  let nextSweep = now() + windowMs;
  return async (key) => {
    const time = now();
    if (time >= nextSweep) {
      // Forget finished windows so ids that never come back do not pile up.
      for (const [id, window] of windows) if (window.resetAt <= time) windows.delete(id);
      nextSweep = time + windowMs;
    }
    let window = windows.get(key);
    if (!window || window.resetAt <= time) windows.set(key, (window = { count: 0, resetAt: time + windowMs }));
    window.count++;
    return { ...window };
  };
}
