/** Lets timers and I/O run (other requests, /api/health) before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A cheap "have I held the event loop long enough?" for loops over many rows: call `due()` per
 * row and await `yieldToEventLoop()` when it says so. Slices of ~10 ms keep other requests'
 * latency in that range, at the price of one setImmediate per slice.
 */
export function sliceTimer(sliceMs = 10): { due(): boolean } {
  let started = performance.now();
  return {
    due() {
      const now = performance.now();
      if (now - started < sliceMs) return false;
      started = now;
      return true;
    },
  };
}
