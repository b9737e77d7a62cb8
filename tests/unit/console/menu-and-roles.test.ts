import { describe, expect, it } from 'vitest';
import { menuGroups } from '../../../src/generated/menu.ts';
import { visibleMenu } from '../../../src/home/visible-menu.ts';
import { MENU_ICONS, requireMenuIcon } from '../../../src/home/menu-icons.ts';
import { groupPermissions, normalisePermissions, roleNameError } from '../../../src/overrides/role/group-permissions.ts';
import { fallbackOptions, loadPublicOptions, parsePublicOptions } from '../../../src/identity/public-options.ts';
import { secretOf } from '../../../src/overrides/userApiKey/api-key-page.tsx';

const can = (list: string[]) => (permission: string) => list.includes(permission);

describe('gallery menu (spec §2)', () => {
  it('shows only items the user holds, hides empty groups', () => {
    const groups = visibleMenu(menuGroups, can(['bot:manage', 'contact:manage']));
    expect(groups.map((group) => group.group)).toEqual(['bot', 'chat']);
    expect(groups.flatMap((group) => group.items.map((item) => item.path))).toEqual(['/crud/bot', '/crud/contact']);
  });

  it('shows the Admin group only with user:manage', () => {
    expect(visibleMenu(menuGroups, can(['tenant:manage'])).map((group) => group.group)).toEqual([]);
    const admin = visibleMenu(menuGroups, can(['user:manage', 'tenant:manage', 'setting:manage']));
    expect(admin.map((group) => group.group)).toEqual(['admin']);
    expect(admin[0]!.items.map((item) => item.path)).toEqual(['/crud/tenant', '/crud/user', '/settings']);
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
  it('falls back to recovery only when nothing can be read', async () => {
    const failing = async () => Promise.reject(new Error('404'));
    expect(await loadPublicOptions({ publicSettings: failing, settings: failing } as never, ' env-id ')).toEqual({ registration: false, recovery: true, googleClientId: 'env-id' });
  });
});
