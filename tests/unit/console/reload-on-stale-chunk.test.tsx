import { describe, expect, it, vi } from 'vitest';
import { reloadOnStaleChunk } from '../../../src/app/reload-on-stale-chunk.ts';

describe('reloadOnStaleChunk', () => {
  it('reloads once when a lazy chunk is gone, and leaves a second failure soon after to the screen', () => {
    sessionStorage.clear();
    const reload = vi.fn();
    reloadOnStaleChunk(reload);
    const first = new Event('vite:preloadError', { cancelable: true });
    window.dispatchEvent(first);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(first.defaultPrevented).toBe(true); // no uncaught error while the page reloads
    const second = new Event('vite:preloadError', { cancelable: true });
    window.dispatchEvent(second);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(second.defaultPrevented).toBe(false);
  });
});
