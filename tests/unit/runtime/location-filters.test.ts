import { describe, expect, it } from 'vitest';
import { filtersFromSearch, searchWithFilters } from '../../../runtime/crud/location-filters.ts';
import { entities } from '../../../src/generated/entities.ts';
import type { ClientEntityModel, FieldModel } from '../../../runtime/model/client-entity-model.ts';

// The filter bar's state in the address: written as filter.<field>=<text>, read back as the value
// its input holds, for every input type; anything not in the bar is ignored either way.
const base = entities.bottrace as ClientEntityModel;
const field = (name: string, type: FieldModel['type']) => ({ ...base.fields[0], name, type, ref: null, values: null, valueLabels: null }) as FieldModel;
const model: Pick<ClientEntityModel, 'filters' | 'fields'> = {
  fields: [field('title', 'string'), field('active', 'boolean'), field('pages', 'number'), field('publishedAt', 'date'), field('tags', 'array.ref'), field('kind', 'enum')],
  filters: [
    { field: 'title', operator: 'like', label: 'x', permission: null },
    { field: 'active', operator: 'eq', label: 'x', permission: null },
    { field: 'pages', operator: 'gte', label: 'x', permission: null },
    { field: 'publishedAt', operator: 'gte', label: 'x', permission: null },
    { field: 'tags', operator: 'in', label: 'x', permission: null },
    { field: 'kind', operator: 'in', label: 'x', permission: null },
  ],
};

describe('filter bar state in the address', () => {
  const cases: Record<string, unknown>[] = [
    { title: 'hello & bye?', active: false, pages: 0, publishedAt: new Date('2026-01-02T03:04:05.000Z'), tags: ['a', 'b'], kind: ['x'] },
    { active: true, pages: -2.5 },
    { title: 'ñandú=1' },
    {},
  ];
  it.each(cases)('round trips %o, keeping the other parameters', (values) => {
    const search = searchWithFilters(model, '?edit=r1&filter.gone=1', values);
    expect(new URLSearchParams(search).get('edit')).toBe('r1');
    expect(new URLSearchParams(search).get('filter.gone')).toBe('1');
    expect(filtersFromSearch(model, search)).toEqual(values);
  });

  it('empty values leave the address; unreadable ones are dropped when read', () => {
    expect(searchWithFilters(model, '?filter.title=old', { title: '', tags: [], pages: null })).toBe('');
    expect(searchWithFilters(model, '?a=1&filter.pages=3&b=2', { pages: 3 })).toBe('?a=1&filter.pages=3&b=2');
    expect(filtersFromSearch(model, '?filter.active=maybe&filter.pages=ten&filter.publishedAt=never&filter.tags=,')).toEqual({});
  });

  it('a shipped entity: the bot-trace links of the unanswered questions still open filtered', () => {
    expect(filtersFromSearch(entities.bottrace, '?filter.status=s3&filter.reaction=Helpful&filter.userMessage=x')).toEqual({ status: 's3', reaction: 'Helpful' });
  });
});
