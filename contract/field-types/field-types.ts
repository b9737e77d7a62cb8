import type { FieldType } from '../model/entity-model.ts';
import { FIELD_TYPE_FACETS, type FieldTypeDefinition } from './field-type-definition.ts';
import { stringType } from './string.ts';
import { longStringType } from './longString.ts';
import { passwordType } from './password.ts';
import { enumType } from './enum.ts';
import { numberType } from './number.ts';
import { fileType } from './file.ts';
import { fullFileType } from './fullFile.ts';
import { booleanType } from './boolean.ts';
import { dateType } from './date.ts';
import { refType } from './ref.ts';
import { objectType } from './object.ts';
import { arrayStringType } from './array.string.ts';
import { arrayEnumType } from './array.enum.ts';
import { arrayNumberType } from './array.number.ts';
import { arrayRefType } from './array.ref.ts';
import { arrayObjectType } from './array.object.ts';

/**
 * Every field type by name (FIELD_TYPES in contract/model/entity-model.ts lists the same names).
 * Checked as it loads: a definition missing a facet stops the generator, the server and the console
 * at once, naming the type and the facet.
 */
export const FIELD_TYPE_REGISTRY: Readonly<Record<FieldType, FieldTypeDefinition>> = checkedRegistry({
  string: stringType,
  longString: longStringType,
  password: passwordType,
  enum: enumType,
  number: numberType,
  file: fileType,
  fullFile: fullFileType,
  boolean: booleanType,
  date: dateType,
  ref: refType,
  object: objectType,
  'array.string': arrayStringType,
  'array.enum': arrayEnumType,
  'array.number': arrayNumberType,
  'array.ref': arrayRefType,
  'array.object': arrayObjectType,
});

/** The definition of `type`; throws naming the known types when there is none. */
export function fieldType(type: string): FieldTypeDefinition {
  // Own keys only: "toString" is not a field type.
  const definition = Object.hasOwn(FIELD_TYPE_REGISTRY, type) ? FIELD_TYPE_REGISTRY[type as FieldType] : undefined;
  if (!definition) throw new Error(`Unknown field type "${type}" (known: ${Object.keys(FIELD_TYPE_REGISTRY).join(', ')}); add contract/field-types/${type}.ts and list it in contract/field-types/field-types.ts`);
  return definition;
}

/**
 * Throws, naming the type, the missing facets and the file to fix, unless `definition` declares
 * every facet of FieldTypeDefinition (null counts: it says "none") under the name it is listed by.
 */
export function checkFieldTypeDefinition(key: string, definition: Partial<FieldTypeDefinition> | undefined): asserts definition is FieldTypeDefinition {
  const where = `contract/field-types/${key}.ts`;
  if (!definition || typeof definition !== 'object') throw new Error(`Field type "${key}" has no definition: export one from ${where} and list it in contract/field-types/field-types.ts`);
  const missing = FIELD_TYPE_FACETS.filter((facet) => definition[facet] === undefined);
  if (missing.length > 0) {
    throw new Error(`Field type "${key}" (${where}) does not declare ${missing.map((m) => `"${m}"`).join(', ')}: every type declares ${FIELD_TYPE_FACETS.join(', ')} (null where it has none; see contract/field-types/README.md)`);
  }
  if (definition.name !== key) throw new Error(`Field type listed as "${key}" is named "${definition.name}" (${where}): the registry key and the name must match`);
}

function checkedRegistry<T extends Record<string, FieldTypeDefinition>>(registry: T): T {
  for (const [key, definition] of Object.entries(registry)) checkFieldTypeDefinition(key, definition);
  return registry;
}
