import { describe, expect, it } from 'vitest';
import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import type { EntityModel, FieldModel } from '../../../contract/model/entity-model.ts';
import { ajvErrorKey, RULE_BY_AJV_KEYWORD } from '../../../contract/validation/ajv-error-keys.ts';
import { buildInputSchema } from '../../../generator/emit/json-schema.ts';
import { createEntityAjv } from '../../../server/entities/ajv-instance.ts';
import { compileBodyValidator } from '../../../server/entities/entity-validator.ts';
import { createFormValidator } from '../../../runtime/form/form-validator.ts';
import { createErrorTransformer, propertyPath } from '../../../runtime/form/translate-errors.ts';
import { entities } from '../../../src/generated/entities.ts';
import { schemas as generatedSchemas } from '../../../server/generated/schemas.ts';
import { compileValidateFns } from '../runtime/compile-validate-fns.ts';

// The server's body validation and the console's form map Ajv errors through the same function:
// for bodies breaking each rule a manifest can declare, both answer the same locale keys.

const base = entities.bottracestatus.fields[0]!;
const messages = base.validation.messages;
function field(name: string, type: FieldModel['type'], validation: Partial<FieldModel['validation']> = {}, extra: Partial<FieldModel> = {}): FieldModel {
  return {
    ...base, name, type, label: `field.test.${name}`, hint: null, ref: null, values: null, valueLabels: null, objectFields: null, visibleWhen: null, readonly: false, secret: false,
    validation: { ...base.validation, required: false, requiredOnCreate: false, unique: false, maxLength: null, ...validation, messages: { ...messages, format: 'validation.invalidIpv4', ...validation.messages } },
    ...extra,
  };
}

const model = {
  ...entities.bottracestatus,
  name: 'keysTest',
  fields: [
    field('title', 'string', { required: true, minLength: 3, maxLength: 8, pattern: '^[A-Z]' }),
    field('mail', 'string', { format: 'email', messages: { ...messages, format: 'validation.invalidEmail' } }),
    field('kind', 'enum', {}, { values: ['a', 'b'] }),
    field('count', 'number', { integer: true, min: 1, max: 10 }),
    field('ratio', 'number', { min: 0, max: 1 }),
    field('enabled', 'boolean'),
    field('ips', 'array.string', { format: 'ipv4', minItems: 1, maxItems: 2 }),
    field('when', 'date'),
    field('chunks', 'array.object', {}, { objectFields: [field('content', 'string', { required: true, maxLength: 5 })] }),
    field('detail', 'string', {}, { visibleWhen: { field: 'kind', in: ['b'], notIn: null } }),
  ].map((f) => (f.name === 'detail' ? { ...f, validation: { ...f.validation, required: true } } : f)),
} as unknown as EntityModel;

const serverSchema = buildInputSchema(model, 'create');
const formSchema = { ...buildInputSchema(model, 'form'), $id: 'keysTest.form' };
const ajv = createEntityAjv();
const serverValidate = compileBodyValidator(ajv, serverSchema);
const raw = ajv.compile(serverSchema);
const formValidator = createFormValidator(compileValidateFns(formSchema), formSchema);
const identity = (key: string) => key;

function serverKeys(body: Record<string, unknown>): string[] {
  return serverValidate(body).map((e) => `${e.field.split('.')[0]}:${e.reason}`).sort();
}

function formKeys(body: Record<string, unknown>): string[] {
  const transform = createErrorTransformer(formSchema, identity);
  const { errors } = formValidator.validateFormData(body, formSchema as RJSFSchema, undefined, (errors: RJSFValidationError[]) => transform(errors));
  return errors.map((e) => `${propertyPath(e.property ?? '')[0] ?? ''}:${e.message}`).sort();
}

const produced = new Set<string>();
const valid = { title: 'Abcd' };

// [what breaks, body, the keys both sides answer (top-level field: key)]
const CASES: [string, Record<string, unknown>, string[]][] = [
  ['required', {}, ['title:validation.required']],
  ['minLength', { title: 'Ab' }, ['title:validation.minLength']],
  ['maxLength', { title: 'Abcdefghij' }, ['title:validation.maxLength']],
  ['pattern', { title: 'abcd' }, ['title:validation.pattern']],
  ['format (email)', { ...valid, mail: 'nope' }, ['mail:validation.invalidEmail']],
  ['format (date-time)', { ...valid, when: 'tomorrow' }, ['when:validation.invalidValue']],
  ['enum', { ...valid, kind: 'c' }, ['kind:validation.invalidValue']],
  ['minimum', { ...valid, count: 0 }, ['count:validation.min']],
  ['maximum', { ...valid, count: 11 }, ['count:validation.max']],
  ['type integer (a fraction)', { ...valid, count: 1.5 }, ['count:validation.integer']],
  ['type integer (text)', { ...valid, count: 'many' }, ['count:validation.integer']],
  ['type number (text)', { ...valid, ratio: 'half' }, ['ratio:validation.number']],
  ['type boolean', { ...valid, enabled: 'yes' }, ['enabled:validation.invalidValue']],
  ['minItems', { ...valid, ips: [] }, ['ips:validation.minItems']],
  ['maxItems', { ...valid, ips: ['1.1.1.1', '2.2.2.2', '3.3.3.3'] }, ['ips:validation.maxItems']],
  ['format of a list item (the list message)', { ...valid, ips: ['1.1.1.1', '999.1.1.1'] }, ['ips:validation.invalidIpv4']],
  ['nested required', { ...valid, chunks: [{}] }, ['chunks:validation.required']],
  ['nested maxLength', { ...valid, chunks: [{ content: 'toolong' }] }, ['chunks:validation.maxLength']],
  ['conditional required (if/then)', { ...valid, kind: 'b' }, ['detail:validation.required']],
];

describe('Ajv error -> locale key, one mapper for the server and the form', () => {
  it.each(CASES)('%s', (_what, body, expected) => {
    for (const error of (raw(body), raw.errors ?? [])) produced.add(error.keyword);
    expect(serverKeys(body)).toEqual(expected);
    expect(formKeys(body)).toEqual(expected);
  });

  it('an unknown property is unknownField (the form cannot send one; the mapper says the same)', () => {
    expect(serverValidate({ ...valid, colour: 'red' })).toEqual([{ field: 'colour', reason: 'validation.unknownField' }]);
    expect(ajvErrorKey(formSchema, [], { keyword: 'additionalProperties', params: { additionalProperty: 'colour' } })).toBe('validation.unknownField');
    produced.add('additionalProperties');
  });

  it('maps the keywords no manifest produces today the same way on both sides', () => {
    const count = ['count'];
    expect(ajvErrorKey(serverSchema, count, { keyword: 'exclusiveMinimum', params: { limit: 1 } })).toBe('validation.min');
    expect(ajvErrorKey(serverSchema, count, { keyword: 'exclusiveMaximum', params: { limit: 1 } })).toBe('validation.max');
    expect(ajvErrorKey(serverSchema, count, { keyword: 'multipleOf', params: { multipleOf: 1 } })).toBe('validation.integer');
    expect(ajvErrorKey(serverSchema, ['kind'], { keyword: 'const', params: { allowedValue: 'a' } })).toBe('validation.invalidValue');
    expect(ajvErrorKey(serverSchema, ['kind'], { keyword: 'uniqueItems' })).toBe('validation.invalidValue');
    expect(ajvErrorKey(serverSchema, [], { keyword: 'if' })).toBeNull();
  });

  it('covers every validation keyword the generated schemas of the 12 manifests use', () => {
    const STRUCTURE = new Set(['$schema', '$id', 'title', 'description', 'default', 'readOnly', 'writeOnly', 'x-messages', 'properties', 'items', 'allOf', 'then', 'not']);
    const used = new Set<string>();
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(walk);
      for (const [key, value] of Object.entries(node)) {
        if (!STRUCTURE.has(key)) used.add(key);
        // The names under "properties" are field names, not keywords; values of data keywords are data.
        if (key === 'properties') Object.values(value as object).forEach(walk);
        else if (!['x-messages', 'default', 'enum', 'required', 'type'].includes(key)) walk(value);
      }
    };
    for (const entity of Object.values(generatedSchemas)) for (const schema of [entity.create, entity.update]) walk(schema);
    expect(used.size).toBeGreaterThan(8);
    const missing = [...used].filter((keyword) => !produced.has(keyword));
    expect(missing, `keywords the manifests' schemas use that no case above breaks: ${missing.join(', ')}`).toEqual([]);
    for (const keyword of used) if (!['type', 'required', 'additionalProperties', 'if'].includes(keyword)) expect(RULE_BY_AJV_KEYWORD[keyword], keyword).toBeDefined();
  });
});
