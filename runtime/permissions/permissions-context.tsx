import { createContext, useContext } from 'react';

/** Answers "may the current user do this?" for a permission string (docs/product-rules.md#permissions). */
export type Can = (permission: string | null | undefined) => boolean;

/**
 * The one place the UI asks for permissions. Until the identity issue plugs a session in, the app
 * passes a `can` that allows everything; a null permission (none declared) is always allowed.
 */
export const PermissionsContext = createContext<Can | null>(null);

export function useCan(): Can {
  const can = useContext(PermissionsContext);
  if (!can) throw new Error('useCan() needs a <PermissionsContext value={can}> above it');
  return can;
}
