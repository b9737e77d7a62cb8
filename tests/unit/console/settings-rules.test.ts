import { describe, expect, it } from 'vitest';
import { fromDraft, normaliseGroups, replaceSetting, toDraft, validateSetting } from '../../../src/settings/setting-value.ts';
import type { Setting } from '../../../src/session/session-types.ts';
import es from '../../../locales/es.json';

const setting = (extra: Partial<Setting>): Setting => ({ _id: '1', key: 'k', type: 'string', value: '', ...extra });

describe('setting validation (docs/product-rules.md#validation)', () => {
  it('string: the regex must match ("Formato Invalido.")', () => {
    const url = setting({ regex: '^(https?://[^\\s/]+)?$' });
    expect(validateSetting(url, 'https://forja.example')).toBeNull();
    expect(validateSetting(url, '')).toBeNull();
    expect(validateSetting(url, 'ftp://x')).toBe('settings.invalidFormat');
    expect((es as { settings: Record<string, string> }).settings.invalidFormat).toBe('Formato Invalido.');
  });

  it('number and numberList require digits ("... Solo se esperan números.")', () => {
    expect(validateSetting(setting({ type: 'number' }), '60000')).toBeNull();
    expect(validateSetting(setting({ type: 'number' }), '6e4')).toBe('settings.onlyNumbers');
    // An empty number clears the setting, as the server accepts it (fromDraft sends null).
    expect(validateSetting(setting({ type: 'number' }), '')).toBeNull();
    expect(validateSetting(setting({ type: 'numberList' }), ['1', '22'])).toBeNull();
    expect(validateSetting(setting({ type: 'numberList' }), ['1', 'x'])).toBe('settings.onlyNumbers');
    expect((es as { settings: Record<string, string> }).settings.onlyNumbers).toBe('Formato Invalido. Solo se esperan números.');
  });

  it('stringList checks each item against the regex', () => {
    const list = setting({ type: 'stringList', regex: '^[a-z]+$' });
    expect(validateSetting(list, ['abc', 'de'])).toBeNull();
    expect(validateSetting(list, ['abc', 'D'])).toBe('settings.invalidFormat');
  });

  it('enum and enumList stay within the options; boolean always valid', () => {
    const options = ['auto', 'offline'];
    expect(validateSetting(setting({ type: 'enum', options }), 'auto')).toBeNull();
    expect(validateSetting(setting({ type: 'enum', options }), 'other')).toBe('settings.invalidFormat');
    expect(validateSetting(setting({ type: 'enumList', options }), ['offline'])).toBeNull();
    expect(validateSetting(setting({ type: 'enumList', options }), ['nope'])).toBe('settings.invalidFormat');
    expect(validateSetting(setting({ type: 'boolean' }), true)).toBeNull();
  });

  it('drafts: passwords are never shown, numbers sent as numbers', () => {
    expect(toDraft(setting({ type: 'password', value: 'sk-secret' }))).toBe('');
    expect(toDraft(setting({ type: 'boolean', value: true }))).toBe(true);
    expect(toDraft(setting({ type: 'numberList', value: [1, 2] }))).toEqual(['1', '2']);
    expect(fromDraft('number', ' 42 ')).toBe(42);
    expect(fromDraft('numberList', ['1', '2'])).toEqual([1, 2]);
    expect(fromDraft('boolean', true)).toBe(true);
  });

  it('reads the grouped endpoint in its plausible shapes and replaces a saved setting', () => {
    const a = setting({ _id: 'a', key: 'auth.x', category: 'auth' });
    const b = setting({ _id: 'b', key: 'llm.y', category: 'llm' });
    expect(normaliseGroups({ auth: [a], llm: [b] })).toEqual([{ category: 'auth', settings: [a] }, { category: 'llm', settings: [b] }]);
    expect(normaliseGroups([{ category: 'auth', settings: [a] }])).toEqual([{ category: 'auth', settings: [a] }]);
    expect(normaliseGroups([a, b]).map((group) => group.category)).toEqual(['auth', 'llm']);
    const replaced = replaceSetting([{ category: 'auth', settings: [a] }], { ...a, value: 'new' });
    expect(replaced[0]!.settings[0]!.value).toBe('new');
  });
});
