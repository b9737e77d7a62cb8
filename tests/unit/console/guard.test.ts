import { describe, expect, it } from 'vitest';
import { guardRedirect, safeRedirectTarget } from '../../../src/app/guard.ts';

const signedIn = (permissions: string[]) => ({ authenticated: true, can: (p: string) => permissions.includes(p) });
const signedOut = { authenticated: false, can: () => false };

describe('route guard (spec §2)', () => {
  it('lets public routes through for anyone', () => {
    expect(guardRedirect({ auth: false, permission: null }, signedOut, { pathname: '/login' })).toBeNull();
  });

  it('sends signed-out visitors to /login with the full path (search and hash) as redirect', () => {
    const target = guardRedirect({ auth: true, permission: null }, signedOut, { pathname: '/crud/bot', search: '?page=2&q=a b', hash: '#top' });
    expect(target).toBe(`/login?redirect=${encodeURIComponent('/crud/bot?page=2&q=a b#top')}`);
    expect(new URLSearchParams(target!.split('?')[1]).get('redirect')).toBe('/crud/bot?page=2&q=a b#top');
  });

  it('redirects a signed-in user lacking the route permission', () => {
    expect(guardRedirect({ auth: true, permission: 'setting:manage' }, signedIn(['bot:manage']), { pathname: '/settings' })).toBe('/login?redirect=%2Fsettings');
  });

  it('renders when signed in with the permission', () => {
    expect(guardRedirect({ auth: true, permission: 'bot:manage' }, signedIn(['bot:manage']), { pathname: '/crud/bot' })).toBeNull();
    expect(guardRedirect({ auth: true, permission: null }, signedIn([]), { pathname: '/' })).toBeNull();
  });

  it('a permission alone implies authentication', () => {
    expect(guardRedirect({ auth: false, permission: 'knowledge:manage' }, signedOut, { pathname: '/knowledge/1' })).toBe('/login?redirect=%2Fknowledge%2F1');
  });
});

describe('redirect after login', () => {
  it('follows same-origin paths', () => {
    expect(safeRedirectTarget('/crud/bot?page=2')).toBe('/crud/bot?page=2');
  });
  it('refuses absent, absolute, protocol-relative and login targets', () => {
    for (const value of [null, '', 'https://evil.example', '//evil.example', '/\\evil', '/login', '/login?redirect=/x', 'crud/bot']) {
      expect(safeRedirectTarget(value)).toBe('/');
    }
  });
});
