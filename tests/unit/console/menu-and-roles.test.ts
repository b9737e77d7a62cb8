import { describe, expect, it } from 'vitest';
import { menuGroups } from '../../../src/generated/menu.ts';
import { visibleMenu } from '../../../src/home/visible-menu.ts';
import { featureTiles } from '../../../src/home/feature-tiles.ts';
import { entities } from '../../../src/generated/entities.ts';
import { MENU_ICONS, requireMenuIcon } from '../../../src/home/menu-icons.ts';
import { groupPermissions, normalisePermissions, roleNameError } from '../../../src/overrides/role/group-permissions.ts';
import { fallbackOptions, loadPublicOptions, parsePublicOptions } from '../../../src/identity/public-options.ts';
import { secretOf } from '../../../src/overrides/userApiKey/api-key-page.tsx';

const can = (list: string[]) => (permission: string) => list.includes(permission);

describe('gallery menu (docs/product-rules.md#screens)', () => {
  const paths = (groups: ReturnType<typeof visibleMenu>) => groups.flatMap((group) => group.tiles.map((tile) => tile.path));

  it('shows a tile for every entity the user may view (view, manage or own), hides empty groups', () => {
    const groups = visibleMenu(menuGroups, can(['bot:manage', 'contact:view']), entities);
    expect(groups.map((group) => group.group)).toEqual(['bot', 'chat']);
    expect(paths(groups)).toEqual(['/crud/bot', '/crud/contact']);
  });

  // Issue 27 item 3: the administration group is for whoever administers users (GROUP_GATES).
  it('the Admin group shows only with user:manage; inside it, each tile follows its own entity', () => {
    for (const without of [['userApiKey:myView'], ['tenant:view'], ['tenant:manage', 'role:manage', 'setting:manage'], ['user:view', 'userApiKey:manage']]) {
      expect(visibleMenu(menuGroups, can(without), entities).map((group) => group.group), without.join()).not.toContain('admin');
    }
    expect(paths(visibleMenu(menuGroups, can(['user:manage', 'tenant:view']), entities))).toEqual(['/crud/tenant', '/crud/user']);
    expect(paths(visibleMenu(menuGroups, can(['user:manage', 'userApiKey:myView']), entities))).toEqual(['/crud/user', '/crud/user-api-key']);
    expect(paths(visibleMenu(menuGroups, can(['create:nothing', 'bot:create']), entities))).toEqual([]);
  });

  it('hand-written screens get tiles by the same rule: analytics with trace view', () => {
    expect(paths(visibleMenu(menuGroups, can(['bottrace:view']), entities, featureTiles))).toEqual(['/crud/bottrace', '/analytics']);
    expect(paths(visibleMenu(menuGroups, can(['bot:manage']), entities, featureTiles))).toEqual(['/crud/bot']);
  });

  it('every manifest icon has a Tabler component; unknown names throw', () => {
    for (const item of menuGroups.flatMap((group) => group.items)) expect(MENU_ICONS[item.icon], item.icon).toBeDefined();
    expect(() => requireMenuIcon('no-such-icon')).toThrow(/Unknown menu icon "no-such-icon"/);
  });
});

describe('role editor', () => {
  it('groups permissions by the prefix before the colon, general last', () => {
    expect(groupPermissions(['user:view', 'bot:manage', 'admin', 'user:manage', 'bot:manage'])).toEqual([
      { name: 'bot', permissions: ['bot:manage'] },
      { name: 'user', permissions: ['user:view', 'user:manage'] },
      { name: 'general', permissions: ['admin'] },
    ]);
  });
  it('reads the permissions endpoint in its plausible shapes', () => {
    expect(normalisePermissions(['a:b'])).toEqual(['a:b']);
    expect(normalisePermissions({ permissions: ['a:b'] })).toEqual(['a:b']);
    expect(normalisePermissions([{ name: 'a:b' }])).toEqual(['a:b']);
    expect(normalisePermissions(null)).toEqual([]);
  });
  it('role name is required and starts with an uppercase letter', () => {
    expect(roleNameError(' ')).toBe('validation.required');
    expect(roleNameError('editor')).toBe('validation.uppercase');
    expect(roleNameError('Editor')).toBeNull();
  });
});

describe('API key secret', () => {
  it('is read from the create response only when present', () => {
    expect(secretOf({ _id: '1', secret: 'fk_abc' })).toBe('fk_abc');
    expect(secretOf({ _id: '1' })).toBeNull();
    expect(secretOf(null)).toBeNull();
  });
});

describe('sign-in options', () => {
  it('reads flags from settings lists and key/value objects', () => {
    const fallback = fallbackOptions(null);
    expect(parsePublicOptions([{ key: 'auth.registrationEnabled', value: true }, { key: 'auth.recoveryEnabled', value: false }, { key: 'google.clientId', value: 'cid' }], fallback)).toEqual({
      registration: true,
      recovery: false,
      googleClientId: 'cid',
    });
    expect(parsePublicOptions({ 'auth.registrationEnabled': true }, fallback)).toEqual({ registration: true, recovery: true, googleClientId: null });
    expect(parsePublicOptions({ auth: { registrationEnabled: true, recoveryEnabled: false } }, fallback)).toMatchObject({ registration: true, recovery: false });
  });
  it('reads the keys GET /api/settings/public sends (registration, recovery, googleClientId)', () => {
    const fallback = fallbackOptions(null);
    expect(parsePublicOptions({ registration: true, recovery: false, googleClientId: 'cid.apps' }, fallback)).toEqual({ registration: true, recovery: false, googleClientId: 'cid.apps' });
    expect(parsePublicOptions({ registration: false, recovery: true, googleClientId: null }, fallbackOptions('env-id'))).toEqual({ registration: false, recovery: true, googleClientId: 'env-id' });
    expect(parsePublicOptions({ registration: false, recovery: true, googleClientId: '  ' }, fallback).googleClientId).toBeNull();
  });
  it('falls back to recovery only when nothing can be read', async () => {
    const failing = async () => Promise.reject(new Error('404'));
    expect(await loadPublicOptions({ publicSettings: failing, settings: failing } as never, ' env-id ')).toEqual({ registration: false, recovery: true, googleClientId: 'env-id' });
  });
});
