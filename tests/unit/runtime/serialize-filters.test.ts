import { describe, expect, it } from 'vitest';
import { serializeFilters } from '../../../runtime/transport/serialize-filters.ts';

describe('serializeFilters (docs/product-rules.md#calls)', () => {
  it('joins field;operator;value with |', () => {
    expect(serializeFilters([
      { field: 'status', operator: 'eq', value: 'abc' },
      { field: 'reaction', operator: 'ne', value: 'Love' },
    ])).toBe('status;eq;abc|reaction;ne;Love');
  });

  it('drops empty values: null, undefined, blank strings, empty arrays', () => {
    expect(serializeFilters([
      { field: 'a', operator: 'eq', value: null },
      { field: 'b', operator: 'eq', value: undefined },
      { field: 'c', operator: 'eq', value: '  ' },
      { field: 'd', operator: 'in', value: [] },
      { field: 'e', operator: 'eq', value: 'x' },
    ])).toBe('e;eq;x');
  });

  it('returns undefined when nothing is left', () => {
    expect(serializeFilters([{ field: 'a', operator: 'eq', value: '' }])).toBeUndefined();
    expect(serializeFilters([])).toBeUndefined();
    expect(serializeFilters(undefined)).toBeUndefined();
  });

  it('writes dates as ISO strings and comma-joins arrays', () => {
    const date = new Date('2024-03-01T10:20:30.000Z');
    expect(serializeFilters([
      { field: 'createdAt', operator: 'gte', value: date },
      { field: 'status', operator: 'in', value: ['a', 'b', '', date] },
    ])).toBe('createdAt;gte;2024-03-01T10:20:30.000Z|status;in;a,b,2024-03-01T10:20:30.000Z');
  });

  it('writes numbers, booleans and populated refs by id', () => {
    expect(serializeFilters([
      { field: 'tokens', operator: 'gt', value: 0 },
      { field: 'active', operator: 'eq', value: false },
      { field: 'bot', operator: 'eq', value: { _id: 'b1', name: 'Bot' } },
    ])).toBe('tokens;gt;0|active;eq;false|bot;eq;b1');
  });
});
