/** How long after a reload another failed chunk is an error to show, not a reason to reload. */
const RELOAD_GUARD_MS = 10_000;
const KEY = 'forja:stale-chunk-reload';

/**
 * After a release, a tab opened before it still runs the old entry script, whose lazy chunks
 * (named by content hash) are gone from the server: the next screen or dialog it opens would fail
 * to load. Vite reports that as `vite:preloadError`; the fix is the new index.html, so the page
 * reloads, once. A second failure soon after is a real problem (offline, server down) and is left
 * to the screen's own error handling rather than reloading in a loop.
 */
export function reloadOnStaleChunk(reload: () => void = () => window.location.reload()): void {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(KEY) ?? 0);
    if (Date.now() - last < RELOAD_GUARD_MS) return;
    sessionStorage.setItem(KEY, String(Date.now()));
    event.preventDefault();
    reload();
  });
}
