import { describe, expect, it } from 'vitest';
import { entities } from '../../../server/generated/entities.ts';

describe('storage indexes follow how lists are read', () => {
  it('every default list order has an index, alone and within a tenant', () => {
    for (const model of Object.values(entities)) {
      const field = model.table.defaultSort.field;
      const indexes = model.storage.indexes.map((index) => index.columns.join(','));
      expect(indexes.some((columns) => columns.startsWith(field)), `${model.name} by ${field}`).toBe(true);
      if (model.storage.tenantColumn && field !== 'createdAt') expect(indexes, model.name).toContain(`${model.storage.tenantColumn},${field}`);
    }
  });
});
