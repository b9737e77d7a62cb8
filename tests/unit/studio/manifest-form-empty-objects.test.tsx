import { describe, expect, it } from 'vitest';
import { withoutNewEmptyObjects } from '../../../src/studio/manifest-form.tsx';

describe('the studio form drops the empty objects RJSF adds, keeps what the manifest had', () => {
  it.each([
    ['an optional object RJSF filled with {}', { name: 'a', visibleWhen: {} }, { name: 'x' }, { name: 'a' }],
    ['several, nested', { name: 'a', ref: {}, ui: { table: {}, form: { width: 6 } } }, { name: 'a' }, { name: 'a', ui: { form: { width: 6 } } }],
    ['an object left empty inside one that was there', { validation: { extra: {} } }, { validation: {} }, { validation: {} }],
    ['undefined values', { name: 'a', hint: undefined }, { name: 'a', hint: 'h' }, { name: 'a' }],
  ])('%s', (_case, next, before, expected) => {
    expect(withoutNewEmptyObjects(next as Record<string, unknown>, before)).toEqual(expected);
  });

  it('keeps an empty object the manifest already had, and every array and scalar as it is', () => {
    const next = { valueLabels: {}, values: [], required: false, order: 0 };
    expect(withoutNewEmptyObjects(next, { valueLabels: {} })).toEqual(next);
  });
});
