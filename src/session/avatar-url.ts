import type { SessionUser } from './session-types.ts';

/** The user's avatar picture URL, whatever shape the server stored (url string or file record). */
export function avatarUrl(user: Pick<SessionUser, 'avatar'> | null | undefined): string | null {
  const avatar = user?.avatar;
  if (!avatar) return null;
  if (typeof avatar === 'string') return avatar;
  return typeof avatar.url === 'string' && avatar.url ? avatar.url : null;
}
