import { describe, expect, it } from 'vitest';
import { filtersFromSearch, searchWithFilters } from '../../../runtime/crud/location-filters.ts';
import { entities } from '../../../src/generated/entities.ts';
import type { ClientEntityModel, FieldModel } from '../../../runtime/model/client-entity-model.ts';

// The filter bar's state in the address: written as filter.<field>=<text> (a number or date range as
// filter.<field>.gte= / .lte=, or the plain form when its one operator says it), read back as the
// value its input holds, for every input type; anything not in the bar is ignored either way.
const base = entities.bottrace as ClientEntityModel;
const field = (name: string, type: FieldModel['type']) => ({ ...base.fields[0], name, type, ref: null, values: null, valueLabels: null }) as FieldModel;
const model: Pick<ClientEntityModel, 'filters' | 'fields'> = {
  fields: [
    field('title', 'string'), field('active', 'boolean'), field('pages', 'number'), field('publishedAt', 'date'),
    field('tags', 'array.ref'), field('kind', 'enum'), field('score', 'number'), field('rank', 'number'),
  ],
  filters: [
    { field: 'title', operator: 'like', label: 'x', permission: null },
    { field: 'active', operator: 'eq', label: 'x', permission: null },
    { field: 'pages', operator: 'gte', label: 'x', permission: null },
    { field: 'publishedAt', operator: 'gte', label: 'x', permission: null },
    { field: 'tags', operator: 'in', label: 'x', permission: null },
    { field: 'kind', operator: 'in', label: 'x', permission: null },
    { field: 'score', operator: 'eq', label: 'x', permission: null },
    { field: 'createdAt', operator: 'eq', label: 'x', permission: null },
    // ne is not a range: one input, as before.
    { field: 'rank', operator: 'ne', label: 'x', permission: null },
  ],
};

describe('filter bar state in the address', () => {
  const cases: Record<string, unknown>[] = [
    { title: 'hello & bye?', active: false, pages: { gte: 0 }, publishedAt: { gte: new Date('2026-01-02T03:04:05.000Z') }, tags: ['a', 'b'], kind: ['x'] },
    { active: true, pages: { gte: -2.5, lte: 10 }, score: { lte: 3 }, rank: 4 },
    { title: 'ñandú=1', score: { gte: 1, lte: 1 }, publishedAt: { lte: new Date('2026-03-01T00:00:00.000Z') } },
    { createdAt: { gte: new Date('2026-01-01T00:00:00.000Z'), lte: new Date('2026-01-31T23:59:59.000Z') }, score: { gte: 0, lte: 7 } },
    {},
  ];
  it.each(cases)('round trips %o, keeping the other parameters', (values) => {
    const search = searchWithFilters(model, '?edit=r1&filter.gone=1', values);
    expect(new URLSearchParams(search).get('edit')).toBe('r1');
    expect(new URLSearchParams(search).get('filter.gone')).toBe('1');
    expect(filtersFromSearch(model, search)).toEqual(values);
  });

  it('empty values leave the address; unreadable ones are dropped when read', () => {
    expect(searchWithFilters(model, '?filter.title=old&filter.score.gte=1', { title: '', tags: [], pages: null, score: {} })).toBe('');
    expect(searchWithFilters(model, '?a=1&filter.pages=3&b=2', { pages: { gte: 3 } })).toBe('?a=1&filter.pages=3&b=2');
    expect(filtersFromSearch(model, '?filter.active=maybe&filter.pages=ten&filter.publishedAt=never&filter.tags=,')).toEqual({});
    expect(filtersFromSearch(model, '?filter.score.gte=x&filter.score.lte=&filter.createdAt.lte=never')).toEqual({});
  });

  it('a range is written as .gte / .lte, either optional; the plain form stays for the one operator', () => {
    const date = new Date('2026-05-06T07:08:09.000Z');
    const params = (values: Record<string, unknown>) => [...new URLSearchParams(searchWithFilters(model, '', values))];
    expect(params({ createdAt: { gte: date } })).toEqual([['filter.createdAt.gte', date.toISOString()]]);
    expect(params({ score: { gte: 2, lte: 5 } })).toEqual([['filter.score.gte', '2'], ['filter.score.lte', '5']]);
    expect(params({ score: { lte: 5 } })).toEqual([['filter.score.lte', '5']]);
    // eq: one value is both bounds; gte: the lower bound alone.
    expect(params({ score: { gte: 5, lte: 5 } })).toEqual([['filter.score', '5']]);
    expect(params({ pages: { gte: 5 } })).toEqual([['filter.pages', '5']]);
    expect(params({ pages: { lte: 5 } })).toEqual([['filter.pages.lte', '5']]);
    // Links written with the plain form (and the bounds) read as the range they mean.
    expect(filtersFromSearch(model, '?filter.score=4')).toEqual({ score: { gte: 4, lte: 4 } });
    expect(filtersFromSearch(model, '?filter.pages=4&filter.pages.lte=9')).toEqual({ pages: { gte: 4, lte: 9 } });
    expect(filtersFromSearch(model, '?filter.score=4&filter.score.lte=9')).toEqual({ score: { gte: 4, lte: 9 } });
    expect(filtersFromSearch(model, '?filter.rank=4&filter.rank.gte=1')).toEqual({ rank: 4 });
  });

  it('a shipped entity: the bot-trace links of the unanswered questions still open filtered', () => {
    expect(filtersFromSearch(entities.bottrace, '?filter.status=s3&filter.reaction=Helpful&filter.userMessage=x')).toEqual({ status: 's3', reaction: 'Helpful' });
    expect(filtersFromSearch(entities.bottrace, '?filter.createdAt.gte=2026-01-01T00:00:00.000Z')).toEqual({ createdAt: { gte: new Date('2026-01-01T00:00:00.000Z') } });
  });

  it('every shipped entity has a filter bar', () => {
    const empty = Object.values(entities).filter((entity) => entity.filters.length === 0).map((entity) => entity.name);
    expect(empty).toEqual([]);
  });
});
