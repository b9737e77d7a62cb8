// The Spanish texts split between the entry (what the sign-in page needs) and a chunk of the rest
// (scripts/texts-chunks.ts): together exactly locales/es.json, and the sign-in page's keys in the entry.
import { describe, expect, it } from 'vitest';
import es from '../../../locales/es.json';
import { BOOT_TEXT_KEYS } from '../../../src/app/boot-texts.ts';
import { splitTexts } from '../../../scripts/texts-chunks.ts';
import bootTexts from 'virtual:forja/texts-es-boot';
import restTexts from 'virtual:forja/texts-es-rest';

type Tree = Record<string, unknown>;

function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    if (value && typeof value === 'object') for (const [k, v] of leaves(value as Tree, `${prefix}${key}.`)) out.set(k, v);
    else out.set(`${prefix}${key}`, value);
  }
  return out;
}

describe('Spanish texts in two chunks', () => {
  it('lose and duplicate nothing: every text of es.json is in exactly one of them, unchanged', () => {
    const all = leaves(es as Tree);
    const boot = leaves(bootTexts);
    const rest = leaves(restTexts);
    expect(boot.size + rest.size).toBe(all.size);
    for (const [key, value] of all) expect(boot.has(key) ? boot.get(key) : rest.get(key), key).toBe(value);
  });

  it('put the sign-in page, error and validation texts in the entry, and a single entry by its dotted path', () => {
    expect(leaves(bootTexts).get('login.submit')).toBe('Iniciar sesión');
    expect(Object.keys(bootTexts).sort()).toEqual(['app', 'common', 'crud', 'error', 'login', 'validation']);
    expect(Object.keys(bootTexts.crud as Tree)).toEqual(['dismissDialog']);
    expect((restTexts.crud as Tree).dismissDialog).toBeUndefined();
    expect((restTexts.crud as Tree).create).toBe('Crear');
    expect(BOOT_TEXT_KEYS.length).toBeGreaterThan(0);
  });

  it('names the file and the key when a boot key is not a text', () => {
    expect(() => splitTexts({ app: { title: 'Forja' } }, ['app.nothing'])).toThrow(/src\/app\/boot-texts\.ts: "app\.nothing" is not in locales\/es\.json/);
    expect(() => splitTexts({ app: 'Forja' }, ['app.title'])).toThrow(/"app\.title" is not in/);
  });
});
