import { createContext, useContext, type ReactNode } from 'react';

/** Answers "may the current user do this?" for a permission string (docs/product-rules.md#permissions). */
export type Can = (permission: string | null | undefined) => boolean;

/**
 * The one place the UI asks for permissions. Until the identity issue plugs a session in, the app
 * passes a `can` that allows everything; a null permission (none declared) is always allowed.
 */
const PermissionsContext = createContext<Can | null>(null);

export function PermissionsScope({ can, children }: { can: Can; children: ReactNode }) {
  return <PermissionsContext.Provider value={can}>{children}</PermissionsContext.Provider>;
}

export function useCan(): Can {
  const can = useContext(PermissionsContext);
  if (!can) throw new Error('useCan() needs a <PermissionsScope> above it');
  return can;
}
