// Issue 27 item 1: every number field of every manifest, and every number setting, keeps the
// value typed. Each field is typed a spread of values (a seeded generator plus the edge cases),
// with the UI language's decimal mark and the other one, in Spanish and in English, in a browser
// whose own locale is Spanish (what turned "0,5" into "05"). What the form would send must be
// exactly the number typed, or, for a text that is no number, the text itself (refused at the
// field with the rule it breaks); min, max and integer are refused, never clamped or rounded.
import { createRef } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EntityForm, type EntityFormHandle } from '../../../runtime/form/entity-form.tsx';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';
import { entities } from '../../../src/generated/entities.ts';
import { formLoaders } from '../../../src/generated/forms.ts';
import { SETTING_DEFINITIONS } from '../../../server/settings/setting-definitions.ts';
import { SETTING_NUMBER_RULES, validateSettingValue } from '../../../contract/settings/validate-setting-value.ts';
import { SettingDialog } from '../../../src/settings/setting-dialog.tsx';
import type { Setting } from '../../../src/session/session-types.ts';
import { formatTypedNumber, parseTypedNumber } from '../../../runtime/inputs/typed-number.ts';
import en from '../../../locales/en.json';
import { RuntimeHarness, installBrowserShims, testI18n } from './runtime-test-harness.tsx';

const LANGUAGES = { es: ',', en: '.' } as const;
type Language = keyof typeof LANGUAGES;

const browserLanguages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
beforeAll(() => {
  installBrowserShims();
  testI18n.addResourceBundle('en', 'translation', en, true, true);
  // A Spanish browser: RJSF's own number field formatted with navigator.languages' separator.
  Object.defineProperty(window.navigator, 'languages', { configurable: true, get: () => ['es-ES', 'es'] });
});
afterAll(async () => {
  if (browserLanguages) Object.defineProperty(Navigator.prototype, 'languages', browserLanguages);
  delete (window.navigator as unknown as Record<string, unknown>).languages;
  await testI18n.changeLanguage('es');
});

/** A small seeded generator (mulberry32): the same spread of values on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rule { min?: number; max?: number; integer: boolean }

/** Numbers around the rule's edges and in between, decimals and whole, generated per field. */
function numbersFor(rule: Rule, seed: number): number[] {
  const next = random(seed);
  const low = rule.min ?? -1000;
  const high = rule.max ?? 100_000;
  const values = new Set<number>([low, high, low - 1, high + 1, 0, 0.7, 1.5, -3, 12.25]);
  if (rule.min !== undefined) values.add(rule.min - 0.5);
  if (rule.max !== undefined) values.add(rule.max + 0.25);
  for (let i = 0; i < 3; i += 1) {
    const whole = Math.floor(low + next() * (high - low + 1));
    values.add(whole);
    values.add(Number((low + next() * (high - low)).toFixed(1 + Math.floor(next() * 3))));
  }
  return [...values];
}

/** Texts that are no number: each must reach the form as typed. */
const NOT_NUMBERS = ['abc', '1,2,3', '1.2.3', '1e3', '0x1f', '12a', '-', ',', '1 000', '123456789012345678901', '0.1000000000000000055511'];

/** The rules a number breaks, from the schema (what ajv checks), as locale keys. */
function brokenRules(rule: Rule, value: number): string[] {
  const broken: string[] = [];
  if (rule.integer && !Number.isInteger(value)) broken.push('validation.integer');
  if (rule.min !== undefined && value < rule.min) broken.push('validation.min');
  if (rule.max !== undefined && value > rule.max) broken.push('validation.max');
  return broken;
}

function texts(value: number, mark: ',' | '.'): string {
  return formatTypedNumber(value, '.').replace('.', mark);
}

interface NumberField { entity: string; name: string; rule: Rule }

/** Top-level number fields the create form shows (hidden ones are filled by the server). */
async function numberFields(): Promise<NumberField[]> {
  const found: NumberField[] = [];
  for (const [entity, model] of Object.entries(entities) as [string, ClientEntityModel][]) {
    const { schema, uiSchema } = await formLoaders[entity as keyof typeof formLoaders]();
    for (const field of model.fields) {
      if (field.type !== 'number') continue;
      const property = (schema.properties as Record<string, Record<string, unknown>>)[field.name];
      const ui = (uiSchema as Record<string, Record<string, unknown>>)[field.name];
      if (!property || ui?.['ui:widget'] === 'hidden') continue;
      const type = Array.isArray(property.type) ? property.type : [property.type];
      found.push({
        entity,
        name: field.name,
        rule: { min: property.minimum as number | undefined, max: property.maximum as number | undefined, integer: type.includes('integer') },
      });
    }
  }
  return found;
}

describe('typed numbers (runtime/inputs/typed-number.ts)', () => {
  it('reads both marks, keeps what it cannot represent exactly as text, and shows the language mark', () => {
    expect(parseTypedNumber('0,7')).toEqual({ kind: 'number', value: 0.7 });
    expect(parseTypedNumber(' -0.70 ')).toEqual({ kind: 'number', value: -0.7 });
    expect(parseTypedNumber(',5')).toEqual({ kind: 'number', value: 0.5 });
    expect(parseTypedNumber('')).toEqual({ kind: 'empty' });
    expect(parseTypedNumber('9007199254740993')).toEqual({ kind: 'invalid', text: '9007199254740993' });
    for (const text of NOT_NUMBERS) expect(parseTypedNumber(text).kind, text).toBe('invalid');
    expect(formatTypedNumber(0.5, ',')).toBe('0,5');
    expect(formatTypedNumber(1e-7, ',')).toBe('0,0000001');
    expect(formatTypedNumber(null, '.')).toBe('');
  });
});

describe('every number field of every manifest keeps the value typed', () => {
  it('finds the number fields (the knowledge threshold among them)', async () => {
    const fields = await numberFields();
    expect(fields.map((f) => `${f.entity}.${f.name}`)).toEqual(expect.arrayContaining(['knowledge.scoreThreshold', 'knowledge.maxResults']));
  });

  for (const language of Object.keys(LANGUAGES) as Language[]) {
    it(`in ${language === 'es' ? 'Spanish' : 'English'}: both marks, the rules refused at the field, nothing rounded`, { timeout: 60_000 }, async () => {
      await act(() => testI18n.changeLanguage(language));
      const fields = await numberFields();
      const byEntity = new Map<string, NumberField[]>();
      for (const field of fields) byEntity.set(field.entity, [...(byEntity.get(field.entity) ?? []), field]);
      let checked = 0;
      for (const [entity, entityFields] of byEntity) {
        const schemas = await formLoaders[entity as keyof typeof formLoaders]();
        const onChange = vi.fn();
        const handle = createRef<EntityFormHandle>();
        const entityClients = new Proxy({}, { get: () => ({ search: async () => [], findByIds: async () => [] }) });
        render(
          <RuntimeHarness services={{ entityClients: entityClients as never }}>
            <EntityForm model={entities[entity as keyof typeof entities] as ClientEntityModel} schemas={schemas} operation="create" initialData={{}} handle={handle} onChange={onChange} />
          </RuntimeHarness>,
        );
        const sent = (name: string) => (onChange.mock.calls.at(-1)?.[0] as Record<string, unknown> | undefined)?.[name];
        const errorOf = (input: HTMLElement) => {
          const id = input.getAttribute('aria-describedby')?.split(' ').find((part) => part.endsWith('-error'));
          return id ? (document.getElementById(id)?.textContent ?? null) : null;
        };
        for (const [index, field] of entityFields.entries()) {
          const input = document.getElementById(`root_${field.name}`) as HTMLInputElement;
          expect(input, `${entity}.${field.name}`).not.toBeNull();
          const numbers = numbersFor(field.rule, 1000 + index);
          const cases: [string, number | string][] = [];
          for (const value of numbers) for (const mark of [',', '.'] as const) cases.push([texts(value, mark), value]);
          for (const text of NOT_NUMBERS) cases.push([text, text]);
          for (const [typed, expected] of cases) {
            const label = `${language} ${entity}.${field.name} typed ${JSON.stringify(typed)}`;
            fireEvent.change(input, { target: { value: typed } });
            fireEvent.blur(input);
            expect(input.value, label).toBe(typed);
            expect(sent(field.name), label).toBe(expected);
            act(() => {
              handle.current!.validate();
            });
            const broken = typeof expected === 'number' ? brokenRules(field.rule, expected) : [field.rule.integer ? 'validation.integer' : 'validation.number'];
            const messages = broken.map((key) => testI18n.t(key, { min: field.rule.min, max: field.rule.max }));
            expect((errorOf(input) ?? '').split('\n').filter(Boolean).sort(), label).toEqual(messages.sort());
            checked += 1;
          }
        }
        // Typed key by key too (the intermediate "0," must not become 0 and stay so).
        const first = entityFields[0]!;
        const input = document.getElementById(`root_${first.name}`) as HTMLInputElement;
        const user = userEvent.setup();
        await user.clear(input);
        await user.type(input, `1${LANGUAGES[language]}`);
        expect(input.value).toBe(`1${LANGUAGES[language]}`);
        await user.type(input, '5');
        expect(input.value).toBe(`1${LANGUAGES[language]}5`);
        expect(sent(first.name)).toBe(1.5);
        cleanup();
      }
      expect(checked).toBeGreaterThan(100);
    });
  }

  it('a default decimal shows with the language mark (the threshold 0.5 is "0,5" in Spanish, "0.5" in English)', async () => {
    const schemas = await formLoaders.knowledge();
    for (const [language, shown] of [['es', '0,5'], ['en', '0.5']] as const) {
      await act(() => testI18n.changeLanguage(language));
      const onChange = vi.fn();
      const entityClients = new Proxy({}, { get: () => ({ search: async () => [], findByIds: async () => [] }) });
      render(
        <RuntimeHarness services={{ entityClients: entityClients as never }}>
          <EntityForm model={entities.knowledge as ClientEntityModel} schemas={schemas} operation="create" initialData={{ scoreThreshold: 0.5 }} onChange={onChange} />
        </RuntimeHarness>,
      );
      expect((document.getElementById('root_scoreThreshold') as HTMLInputElement).value, language).toBe(shown);
      cleanup();
    }
  });
});

describe('every number setting keeps the value typed (Settings dialog)', () => {
  const numberSettings = Object.values(SETTING_DEFINITIONS).filter((definition) => definition.type === 'number');

  it('finds the number settings', () => {
    expect(numberSettings.map((s) => s.key)).toEqual(expect.arrayContaining(['llm.timeoutMs', 'smtp.port']));
  });

  for (const language of Object.keys(LANGUAGES) as Language[]) {
    it(`in ${language === 'es' ? 'Spanish' : 'English'}: sends the number typed with either mark, or refuses it with the rule`, { timeout: 60_000 }, async () => {
      await act(() => testI18n.changeLanguage(language));
      for (const [index, definition] of numberSettings.entries()) {
        const rule = SETTING_NUMBER_RULES[definition.key] ?? {};
        const setting: Setting = { _id: definition.key, key: definition.key, label: definition.label, category: definition.category, type: 'number', value: definition.value, options: null, regex: null, prefix: null, suffix: definition.suffix ?? null };
        const onSave = vi.fn(async () => undefined);
        render(
          <RuntimeHarness services={{}}>
            <SettingDialog setting={setting} onClose={() => undefined} onSave={onSave} />
          </RuntimeHarness>,
        );
        const input = screen.getByTestId('setting-input') as HTMLInputElement;
        for (const value of numbersFor({ min: rule.min, max: rule.max, integer: rule.integer ?? false }, 2000 + index)) {
          for (const mark of [',', '.'] as const) {
            const typed = texts(value, mark);
            const label = `${language} ${definition.key} typed ${typed}`;
            onSave.mockClear();
            fireEvent.change(input, { target: { value: typed } });
            expect(input.value, label).toBe(typed);
            await act(async () => {
              fireEvent.click(screen.getByTestId('setting-save'));
            });
            const verdict = validateSettingValue({ key: definition.key, type: 'number' }, value);
            if (verdict.ok) expect(onSave, label).toHaveBeenCalledWith(setting, value);
            else expect(onSave, label).not.toHaveBeenCalled();
          }
        }
        cleanup();
      }
    });
  }
});
