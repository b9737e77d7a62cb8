import { lazy, memo, Suspense } from 'react';
import { Group, MultiSelect, NumberInput, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldModel, FilterModel } from '../model/client-entity-model.ts';
import { RefMultiSelect, RefSelect } from '../inputs/ref-select.tsx';
import { compactRange, filterFieldType, isFilterRange, isRangeFilter, type FilterRange } from '../crud/filter-range.ts';

// @mantine/dates is a large chunk and only date filters need it.
const DateTimePicker = lazy(() => import('../inputs/date-time-picker.tsx'));

interface FilterInputProps {
  filter: FilterModel;
  field: FieldModel | null;
  value: unknown;
  onChange: (field: string, value: unknown) => void;
}

/** One filter rendered as the input of its field's type (docs/product-rules.md#entities filters). */
export const FilterInput = memo(function FilterInput({ filter, field, value, onChange }: FilterInputProps) {
  const { t } = useTranslation();
  const label = t(filter.label);
  const set = (next: unknown) => onChange(filter.field, next);
  const many = filter.operator === 'in' || filter.operator === 'nin';
  const type = filterFieldType(filter, field);
  if (isRangeFilter(filter, field)) {
    return <RangeFilterInput label={label} date={type === 'date'} value={isFilterRange(value) ? value : {}} onChange={set} />;
  }
  switch (type) {
    case 'enum':
    case 'array.enum': {
      const data = (field?.values ?? []).map((option) => ({ value: option, label: t(field?.valueLabels?.[option] ?? option) }));
      // in / nin: any of several values (the address carries them comma-joined).
      if (many) return <MultiSelect label={label} data={data} value={Array.isArray(value) ? (value as string[]) : []} onChange={(next) => set(next.length ? next : null)} clearable />;
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
  return (
    <TextInput
      label={label}
      placeholder={filter.operator === 'like' ? t('crud.filterRange.contains') : undefined}
      value={(value as string) ?? ''}
      onChange={(event) => set(event.currentTarget.value)}
    />
  );
});

interface RangeFilterInputProps {
  label: string;
  date: boolean;
  value: FilterRange;
  onChange: (next: FilterRange | null) => void;
}

/** A number or date filter as from / to, either optional (sent as gte / lte, both inclusive). */
function RangeFilterInput({ label, date, value, onChange }: RangeFilterInputProps) {
  const { t } = useTranslation();
  const bound = (key: keyof FilterRange) => (next: number | Date | null) => onChange(compactRange({ ...value, [key]: next ?? undefined }));
  // A day picked as "to" means through its end: the picker's time starts at 23:59:59 there, and
  // the bound takes that whole last second (the picker has no milliseconds; records do).
  const dateBound = (key: keyof FilterRange) => (next: string | null) => {
    const picked = next ? new Date(next) : null;
    if (picked && key === 'lte') picked.setMilliseconds(999);
    bound(key)(picked);
  };
  const labels = { gte: t('crud.filterRange.from', { label }), lte: t('crud.filterRange.to', { label }) };
  const input = (key: keyof FilterRange) => date ? (
    <Suspense key={key} fallback={<TextInput label={labels[key]} disabled />}>
      <DateTimePicker
        label={labels[key]}
        value={(value[key] as Date | undefined) ?? null}
        onChange={(next) => dateBound(key)(next as string | null)}
        defaultTimeValue={key === 'lte' ? '23:59:59' : '00:00:00'}
        clearable
        withSeconds
        valueFormat="DD/MM/YYYY HH:mm:ss"
      />
    </Suspense>
  ) : (
    <NumberInput
      key={key}
      label={labels[key]}
      value={(value[key] as number | undefined) ?? ''}
      onChange={(next) => bound(key)(typeof next === 'number' ? next : null)}
    />
  );
  return <Group grow wrap="nowrap" gap="xs" align="flex-end">{input('gte')}{input('lte')}</Group>;
}
