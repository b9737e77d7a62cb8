import { lazy, memo, Suspense } from 'react';
import { NumberInput, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldModel, FilterModel } from '../model/client-entity-model.ts';
import { RefMultiSelect, RefSelect } from '../inputs/ref-select.tsx';

// @mantine/dates is a large chunk and only date filters need it (no manifest declares one yet).
const DateTimePicker = lazy(() => import('../inputs/date-time-picker.tsx'));

interface FilterInputProps {
  filter: FilterModel;
  field: FieldModel | null;
  value: unknown;
  onChange: (field: string, value: unknown) => void;
}

/** One filter rendered as the input of its field's type (spec §3 filters). */
export const FilterInput = memo(function FilterInput({ filter, field, value, onChange }: FilterInputProps) {
  const { t } = useTranslation();
  const label = t(filter.label);
  const set = (next: unknown) => onChange(filter.field, next);
  const many = filter.operator === 'in' || filter.operator === 'nin';
  const type = field?.type ?? 'string';
  switch (type) {
    case 'enum':
    case 'array.enum': {
      const data = (field?.values ?? []).map((option) => ({ value: option, label: t(field?.valueLabels?.[option] ?? option) }));
      return <Select label={label} data={data} value={(value as string) ?? null} onChange={set} clearable />;
    }
    case 'boolean':
      return (
        <Select
          label={label}
          data={['true', 'false'].map((option) => ({ value: option, label: t(field?.valueLabels?.[option] ?? (option === 'true' ? 'common.yes' : 'common.no')) }))}
          value={value === undefined || value === null ? null : String(value)}
          onChange={(next) => set(next === null ? null : next === 'true')}
          clearable
        />
      );
    case 'number':
    case 'array.number':
      return <NumberInput label={label} value={(value as number) ?? ''} onChange={(next) => set(next === '' ? null : next)} />;
    case 'date':
      return (
        <Suspense fallback={<TextInput label={label} disabled />}>
          <DateTimePicker
            label={label}
            value={(value as Date) ?? null}
            onChange={(next) => set(next ? new Date(next as string) : null)}
            clearable
            withSeconds
            valueFormat="DD/MM/YYYY HH:mm:ss"
          />
        </Suspense>
      );
    case 'ref':
    case 'array.ref':
      if (!field?.ref) break;
      return many || type === 'array.ref' ? (
        <RefMultiSelect label={label} entity={field.ref.entity} display={field.ref.display} value={(value as string[]) ?? []} onChange={set} />
      ) : (
        <RefSelect label={label} entity={field.ref.entity} display={field.ref.display} value={(value as string) ?? null} onChange={set} />
      );
    default:
      break;
  }
  return <TextInput label={label} value={(value as string) ?? ''} onChange={(event) => set(event.currentTarget.value)} />;
});
