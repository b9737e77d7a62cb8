import { initialLanguage } from './language-preference.ts';
import { sessionStore } from '../session/session-store.ts';

/**
 * The pages the build renders to HTML ahead of time (scripts/prerender-sign-in.ts), and the client
 * state each was rendered for: a visitor whose state differs gets the page rendered afresh instead
 * of hydrated, since React can only hydrate markup its first render would produce.
 */
export const PRERENDERED_PAGES = {
  '/login': { language: 'es', darkMode: true },
} as const satisfies Record<string, { language: string; darkMode: boolean }>;

export type PrerenderedPath = keyof typeof PRERENDERED_PAGES;

/** Attribute on #root naming the path its markup was rendered for. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** Whether the markup in `root` is what the app would render now, so it can be hydrated. */
export function canHydrate(root: HTMLElement, pathname: string): boolean {
  const path = root.getAttribute(PRERENDERED_ATTRIBUTE);
  if (path === null || path !== pathname || !(path in PRERENDERED_PAGES)) return false;
  const page = PRERENDERED_PAGES[path as PrerenderedPath];
  const { token, user, darkMode } = sessionStore.getState();
  return token === null && user === null && darkMode === page.darkMode && initialLanguage() === page.language;
}
