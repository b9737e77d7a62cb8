import { createContext, useContext } from 'react';

/** Sets the current address's query string (`?a=1&b=2`, or '' for none) without a new history entry. */
export type ReplaceSearch = (search: string) => void;

/**
 * Where the app plugs in its router's navigation (src/app/crud-route-page.tsx): the runtime knows
 * no router, and changing the address behind the router's back would leave its location stale.
 */
export const ReplaceSearchContext = createContext<ReplaceSearch | null>(null);

/** Without a router (the runtime on its own, as in its dom tests) the History API does it. */
const replaceWithHistory: ReplaceSearch = (search) => {
  const { pathname, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hash}`);
};

/** The app's way to replace the query string, else the History API's. */
export function useReplaceSearch(): ReplaceSearch {
  return useContext(ReplaceSearchContext) ?? replaceWithHistory;
}
