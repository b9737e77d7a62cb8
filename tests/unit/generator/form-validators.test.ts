import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hashForSchema } from '@rjsf/utils';
import { addFormSchemas, createFormAjv, emitFormValidator } from '../../../generator/emit/client/emit-form-validator.ts';
import { createFormValidator } from '../../../runtime/form/form-validator.ts';
import { formLoaders } from '../../../src/generated/forms.ts';
import { ROOT } from './fixture.ts';

const VALIDATORS = path.join(ROOT, 'src/generated/validators');
const entities = Object.keys(formLoaders) as Array<keyof typeof formLoaders>;

/** Sample form data per entity: one valid record and several invalid variants. */
function samples(schema: Record<string, any>): unknown[] {
  const valid: Record<string, unknown> = {};
  for (const [name, property] of Object.entries<Record<string, any>>(schema.properties)) {
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (property.enum) valid[name] = property.enum[0];
    else if (type === 'string') valid[name] = property.format === 'email' ? 'ana@example.com' : property.format === 'uri' ? 'https://example.com/' : 'x'.repeat(Math.max(property.minLength ?? 1, 1));
    else if (type === 'number' || type === 'integer') valid[name] = property.minimum ?? 1;
    else if (type === 'boolean') valid[name] = true;
    else if (type === 'array') valid[name] = [];
  }
  const variants: unknown[] = [valid, {}, null, 'text', { ...valid, unknownField: 1 }];
  for (const name of Object.keys(schema.properties)) {
    variants.push({ ...valid, [name]: 12345 }, { ...valid, [name]: 'x'.repeat(70000) }, { ...valid, [name]: ['😀'.repeat(3)] }, { ...valid, [name]: '😀'.repeat(60) });
  }
  return variants;
}

describe('precompiled form validators (no eval in the browser)', () => {
  test('one generated module per entity form, with no eval, Function or require', () => {
    expect(readdirSync(VALIDATORS).sort()).toEqual(entities.map((entity) => `${entity}.ts`).sort());
    for (const file of readdirSync(VALIDATORS)) {
      const code = readFileSync(path.join(VALIDATORS, file), 'utf8');
      expect(code, file).not.toMatch(/\bnew Function\b|\beval\(|\brequire\(/);
    }
  });

  for (const entity of entities) {
    test(`${entity}: the precompiled functions give AJV's own answers and errors`, async () => {
      const { schema, validateFns } = await formLoaders[entity]();
      const ajv = createFormAjv();
      const keys = addFormSchemas(ajv, schema);
      expect(Object.keys(validateFns).sort()).toEqual(keys);
      for (const key of keys) {
        const compiled = ajv.getSchema(key)!;
        const precompiled = validateFns[key]!;
        for (const data of samples(schema as Record<string, any>)) {
          expect(precompiled(data), `${entity} ${key} ${JSON.stringify(data)?.slice(0, 80)}`).toBe(compiled(data));
          expect((precompiled.errors ?? []).map((e) => [e.instancePath, e.keyword, e.schemaPath])).toEqual((compiled.errors ?? []).map((e) => [e.instancePath, e.keyword, e.schemaPath]));
        }
      }
    });
  }

  test('the knowledge source keeps a function for each visibleWhen condition, under RJSF\'s hash', async () => {
    const { schema, validateFns } = await formLoaders.knowledgesource();
    const conditions = ((schema as { allOf: Array<{ if: Record<string, unknown> }> }).allOf).map((rule) => rule.if);
    expect(conditions.length).toBeGreaterThan(0);
    for (const condition of conditions) expect(validateFns[hashForSchema(condition)], JSON.stringify(condition)).toBeTypeOf('function');
  });

  test('a schema needing an AJV helper the browser has no import for fails the generator, saying how to fix it', () => {
    const schema = { $id: 'demo.form', type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } };
    expect(() => emitFormValidator('demo', schema)).toThrow(/AJV helper require\("ajv\/dist\/runtime\/equal"\).*\n.*fix: add it to HELPERS/s);
  });
});

describe('createFormValidator narrows the full schema to the rendered form', () => {
  test('a field removed from the rendered schema (no permission) is not required, other rules still apply', async () => {
    const { schema, validateFns } = await formLoaders.role();
    const rendered = structuredClone(schema) as Record<string, any>;
    delete rendered.properties.name;
    rendered.required = (rendered.required as string[]).filter((name) => name !== 'name');
    const validator = createFormValidator(validateFns, rendered);
    expect(validator.validateFormData({}, rendered).errors).toEqual([]);
    expect(validator.validateFormData({ permissions: 'not-a-list' }, rendered).errors.map((e) => e.property)).toEqual(['.permissions']);
  });

  test('edit forms drop required-on-create rules (a user\'s password)', async () => {
    const { schema, validateFns } = await formLoaders.user();
    const user = { name: 'Ana', username: 'ana', email: 'ana@example.com', phone: '600000000', role: 'r1', active: true };
    const create = createFormValidator(validateFns, schema);
    expect(create.validateFormData(user, schema).errors.map((e) => e.name)).toContain('required');
    const edit = structuredClone(schema) as Record<string, any>;
    edit.required = (edit.required as string[]).filter((name) => name !== 'password');
    expect(createFormValidator(validateFns, edit).validateFormData(user, edit).errors).toEqual([]);
  });

  test('conditional requirements hold: a link source needs its link', async () => {
    const { schema, validateFns } = await formLoaders.knowledgesource();
    const validator = createFormValidator(validateFns, schema);
    const errors = validator.validateFormData({ name: 'Docs', type: 'link', sourceText: 'a', text: 'b' }, schema).errors;
    expect(errors.map((e) => [e.name, e.property])).toEqual([['required', 'link']]);
  });

  test('a condition without a precompiled function counts as unmet and is reported, never thrown mid-render', async () => {
    const { schema, validateFns } = await formLoaders.knowledgesource();
    const condition = (schema as { allOf: Array<{ if: Record<string, unknown> }> }).allOf[0]!.if;
    const reasons: string[] = [];
    const withoutConditions = Object.fromEntries(Object.entries(validateFns).filter(([key]) => key === 'knowledgesource.form'));
    const validator = createFormValidator(withoutConditions, schema, (reason) => reasons.push(reason));
    expect(validator.isValid(condition as never, { type: 'file' }, schema as never)).toBe(false);
    expect(reasons).toHaveLength(1);
    expect(createFormValidator(validateFns, schema).isValid(condition as never, { type: 'file' }, schema as never)).toBe(true);
  });

  test('a schema without precompiled functions cannot be validated in the browser, and says why', () => {
    expect(() => createFormValidator({}, { $id: 'ghost.form', type: 'object' })).toThrow(/No precompiled validator for form schema "ghost.form"/);
  });
});
