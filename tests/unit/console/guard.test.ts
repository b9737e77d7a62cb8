import { describe, expect, it } from 'vitest';
import { guardDecision, safeRedirectTarget } from '../../../src/app/guard.ts';
import { crudRouteAccess } from '../../../src/app/crud-route-access.ts';
import { entities } from '../../../src/generated/entities.ts';

const signedIn = (permissions: string[]) => ({ authenticated: true, userLoaded: true, can: (p: string) => permissions.includes(p) });
const signedOut = { authenticated: false, userLoaded: false, can: () => false };

describe('route guard (docs/product-rules.md#screens)', () => {
  const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });
  it('lets public routes through for anyone', () => {
    expect(guardDecision({ auth: false, permissions: null }, signedOut, at('/login'))).toEqual({ kind: 'allow' });
  });

  it('sends signed-out visitors to /login with the full path (search and hash) as redirect', () => {
    const decision = guardDecision({ auth: true, permissions: null }, signedOut, at('/crud/bot', '?page=2&q=a b', '#top'));
    expect(decision).toEqual({ kind: 'login', to: `/login?redirect=${encodeURIComponent('/crud/bot?page=2&q=a b#top')}` });
    if (decision.kind === 'login') expect(new URLSearchParams(decision.to.split('?')[1]).get('redirect')).toBe('/crud/bot?page=2&q=a b#top');
  });

  it('tells a signed-in user lacking every permission of the route so, instead of sending them to sign in again', () => {
    expect(guardDecision({ auth: true, permissions: ['setting:view', 'setting:manage'] }, signedIn(['bot:manage']), at('/settings'))).toEqual({ kind: 'forbidden' });
  });

  it('renders when signed in with any one of the route permissions', () => {
    expect(guardDecision({ auth: true, permissions: ['bot:view', 'bot:manage'] }, signedIn(['bot:manage']), at('/crud/bot'))).toEqual({ kind: 'allow' });
    expect(guardDecision({ auth: true, permissions: ['bot:view', 'bot:manage'] }, signedIn(['bot:view']), at('/crud/bot'))).toEqual({ kind: 'allow' });
    expect(guardDecision({ auth: true, permissions: null }, signedIn([]), at('/'))).toEqual({ kind: 'allow' });
  });

  it('a permission alone implies authentication', () => {
    expect(guardDecision({ auth: false, permissions: ['knowledge:manage'] }, signedOut, at('/knowledge/1'))).toEqual({ kind: 'login', to: '/login?redirect=%2Fknowledge%2F1' });
  });

  it('waits for the signed-in user before deciding (no "no permission" flash right after sign-in)', () => {
    const loading = { authenticated: true, userLoaded: false, can: () => false };
    expect(guardDecision({ auth: true, permissions: ['bot:view'] }, loading, at('/crud/bot'))).toEqual({ kind: 'loading' });
    expect(guardDecision({ auth: true, permissions: null }, loading, at('/'))).toEqual({ kind: 'loading' });
    expect(guardDecision({ auth: false, permissions: null }, loading, at('/login'))).toEqual({ kind: 'allow' });
  });

  it('crud routes open for whoever may view the entity, as the API decides', () => {
    expect(crudRouteAccess(entities.bot)).toEqual(['bot:view', 'bot:manage']);
    expect(crudRouteAccess(entities.userApiKey)).toEqual(['userApiKey:view', 'userApiKey:manage', 'userApiKey:myView']);
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
