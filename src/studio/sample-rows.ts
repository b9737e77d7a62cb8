import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';

/** A few made-up rows for the table preview of a draft entity (its real rows may not have the new fields yet). */
export function sampleRows(model: ClientEntityModel, count = 3): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => {
    const row: Record<string, unknown> = { _id: `sample-${index + 1}`, createdAt: new Date(Date.UTC(2026, 0, index + 1)).toISOString(), updatedAt: null };
    for (const field of model.fields) row[field.name] = sampleValue(field as unknown as { name: string; type: string; values?: string[] | null }, index);
    return row;
  });
}

function sampleValue(field: { name: string; type: string; values?: string[] | null }, index: number): unknown {
  switch (field.type) {
    case 'string': case 'longString': return `${field.name} ${index + 1}`;
    case 'number': return (index + 1) * 10;
    case 'boolean': return index % 2 === 0;
    case 'date': return new Date(Date.UTC(2026, 0, index + 1)).toISOString();
    case 'enum': return field.values?.[index % (field.values.length || 1)] ?? null;
    case 'array.string': return [`${field.name} ${index + 1}`];
    case 'array.enum': return field.values?.slice(0, 1) ?? [];
    default: return null;
  }
}
