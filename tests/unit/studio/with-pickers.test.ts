import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withPickers } from '../../../src/studio/with-pickers.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const metaSchema = JSON.parse(fs.readFileSync(path.join(REPO, 'manifests/manifest.schema.json'), 'utf8'));
type Schema = Record<string, any>;

describe('studio pickers: references and icons are chosen, not typed', () => {
  const choices = { entities: ['contact', 'bot', 'faqItem', 'bot'], icons: ['robot', 'books', 'users'] };

  it('a field form: ref.entity is one of the entities (sorted, once each), at the top and in nested fields', () => {
    const field = withPickers({ ...metaSchema.$defs.field, $defs: metaSchema.$defs } as Schema, choices) as Schema;
    expect(field.properties.ref.properties.entity.enum).toEqual(['bot', 'contact', 'faqItem']);
    expect(field.$defs.field.properties.ref.properties.entity.enum).toEqual(['bot', 'contact', 'faqItem']);
    // The rest of the reference is as the meta-schema has it.
    expect(field.properties.ref.properties.entity.pattern).toBe(metaSchema.$defs.field.properties.ref.properties.entity.pattern);
    expect(field.properties.ref.required).toEqual(['entity']);
  });

  it('an entity form: every icon (menu, row actions) is one the build has', () => {
    const entity = withPickers({ type: 'object', properties: metaSchema.properties, $defs: metaSchema.$defs } as Schema, choices) as Schema;
    expect(entity.$defs.iconName.enum).toEqual(['books', 'robot', 'users']);
    expect(entity.properties.menu.properties.icon).toEqual({ $ref: '#/$defs/iconName' });
  });

  it('leaves the meta-schema it was given untouched', () => {
    const before = JSON.stringify(metaSchema);
    withPickers({ ...metaSchema.$defs.field, $defs: metaSchema.$defs } as Schema, choices);
    expect(JSON.stringify(metaSchema)).toBe(before);
  });
});
