/**
 * Why the console signed someone out by itself, kept for the sign-in page it lands on (issue 27:
 * an expired session landed on /login with no word why). In sessionStorage: it survives the
 * redirect and a reload of that tab, not a new tab or a later visit.
 */
export type SignOutReason = 'expired';

const KEY = 'forja.signedOutReason';
const REASONS: ReadonlySet<string> = new Set<SignOutReason>(['expired']);

function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage disabled: the page just says nothing
  }
}

export function rememberSignOutReason(reason: SignOutReason): void {
  storage()?.setItem(KEY, reason);
}

/** The reason left for the sign-in page, if any (it stays until the next sign-in). */
export function signOutReason(): SignOutReason | null {
  const value = storage()?.getItem(KEY) ?? null;
  return value !== null && REASONS.has(value) ? (value as SignOutReason) : null;
}

export function forgetSignOutReason(): void {
  storage()?.removeItem(KEY);
}
