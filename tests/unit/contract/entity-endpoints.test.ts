import { describe, expect, it } from 'vitest';
import { ENTITY_ENDPOINTS, entityEndpointsOf, entityEndpointUrl } from '../../../contract/endpoints/entity-endpoints.ts';

const ALL = { creatable: true, editable: true, deletable: true, exportable: true, importable: true };

describe('entity endpoint table', () => {
  it('builds each URL from the base path, encoding parameters; a list is encoded item by item', () => {
    expect(entityEndpointUrl('/api/bots', 'paginate')).toBe('/api/bots');
    expect(entityEndpointUrl('/api/bots', 'findOne')).toBe('/api/bots/find-one');
    expect(entityEndpointUrl('/api/bots', 'findById', { id: 'a/b c' })).toBe('/api/bots/a%2Fb%20c');
    expect(entityEndpointUrl('/api/bots', 'findByIds', { ids: ['a,1', 'b'] })).toBe('/api/bots/ids/a%2C1,b');
  });

  it('names a missing parameter', () => {
    expect(() => entityEndpointUrl('/api/bots', 'update')).toThrow(/update needs the parameter "id"/);
  });

  it('lists static segments before /:id and drops what the flags forbid', () => {
    const names = entityEndpointsOf(ALL).map(([name]) => name);
    expect(names.indexOf('findByIds')).toBeLessThan(names.indexOf('findById'));
    expect(names.indexOf('export')).toBeLessThan(names.indexOf('findById'));
    const readOnly = entityEndpointsOf({ creatable: false, editable: false, deletable: false, exportable: false, importable: false }).map(([name]) => name);
    expect(readOnly).toEqual(['search', 'find', 'findOne', 'findByIds', 'findById', 'paginate']);
    expect(Object.keys(ENTITY_ENDPOINTS)).toHaveLength(12);
  });
});
