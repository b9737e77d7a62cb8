import type { ReactNode } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import type { TableColumnSpec } from './table-columns.ts';
import { formatDate, formatMsToSeconds, refLabel, scalarText, truncate } from './format-cell.ts';

/**
 * The content of one table cell by its cell kind (each field type names one, contract/field-types)
 * and column formatter (docs/product-rules.md#screens Table). A function of
 * the table's `t`, not a component with hooks of its own: a page holds hundreds of cells, and a
 * useTranslation per cell cost more than the rest of the row.
 */
export function entityCellContent(column: TableColumnSpec, value: unknown, t: (key: string) => string): ReactNode {
  const field = column.field;
  switch (column.kind) {
    case 'systemDate':
    case 'date':
      return formatDate(value);
    case 'systemId':
      return <Text size="xs" ff="monospace">{String(value ?? '')}</Text>;
    case 'boolean':
      if (value === null || value === undefined) return null;
      return (
        <Badge color={value ? 'green' : 'red'} variant="light">
          {t(field?.valueLabels?.[String(Boolean(value))] ?? (value ? 'common.yes' : 'common.no'))}
        </Badge>
      );
    case 'ref':
      return refLabel(value, field?.ref?.display ?? 'name');
    case 'refList':
    case 'chips': {
      if (!Array.isArray(value) || value.length === 0) return null;
      return (
        <Group gap={4}>
          {value.map((item, index) => (
            <Badge key={index} color="blue" variant="light" tt="none">
              {column.kind === 'refList' ? refLabel(item, field?.ref?.display ?? 'name') : scalarText(field, item, t)}
            </Badge>
          ))}
        </Group>
      );
    }
    case 'count':
      return Array.isArray(value) ? String(value.length) : '';
    case 'fileName':
      return typeof value === 'string' ? truncate(value.split('/').pop() ?? value, 40) : '';
    case 'uploadedFile':
      return refLabel(value, 'filename');
    case 'secret':
      return null;
    case 'text':
    case 'longText': {
      if (field?.column.formatter === 'msToSeconds') return formatMsToSeconds(value, field.column.decimals);
      const text = scalarText(field, value, t);
      if (field?.column.formatter === 'truncate' || column.kind === 'longText') return <span title={text}>{truncate(text)}</span>;
      return text;
    }
  }
}
