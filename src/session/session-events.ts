/**
 * The session's public events (docs/product-rules.md#screens, #states): login-success after a sign-in, login-failed when a
 * Google sign-in fails, logout after sign-out. A Set of listeners is all this needs.
 */
export type SessionEvent = 'login-success' | 'login-failed' | 'logout';
type Listener = (event: SessionEvent) => void;

const listeners = new Set<Listener>();

export function onSessionEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Also dispatched on window as `forja:<event>` for code outside the module graph (embeds, tests). */
export function emitSessionEvent(event: SessionEvent): void {
  for (const listener of [...listeners]) listener(event);
  if (typeof window !== 'undefined' && typeof CustomEvent !== 'undefined') window.dispatchEvent(new CustomEvent(`forja:${event}`));
}
