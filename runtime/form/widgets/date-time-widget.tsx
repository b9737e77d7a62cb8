import { useMemo } from 'react';
import DateTimePicker from '../../inputs/date-time-picker.tsx';
import type { WidgetProps } from '@rjsf/utils';
import dayjs from 'dayjs';
import { widgetInputProps } from './widget-input-props.ts';

/** docs/product-rules.md#constants: the picker offers 100 years back and 52 ahead unless the field sets min / max. */
export const YEARS_BEFORE = 100;
export const YEARS_AFTER = 52;

/** date fields: Mantine DateTimePicker; the form value is an ISO string (JSON Schema date-time). */
export function DateTimeWidget(props: WidgetProps) {
  const minDate = (props.options.minDate as string | undefined) ?? null;
  const maxDate = (props.options.maxDate as string | undefined) ?? null;
  const range = useMemo(
    () => ({
      minDate: minDate ? new Date(minDate) : dayjs().subtract(YEARS_BEFORE, 'year').startOf('year').toDate(),
      maxDate: maxDate ? new Date(maxDate) : dayjs().add(YEARS_AFTER, 'year').endOf('year').toDate(),
    }),
    [minDate, maxDate],
  );
  const value = props.value ? new Date(props.value as string) : null;
  return (
    <DateTimePicker
      {...widgetInputProps(props)}
      value={value && !Number.isNaN(value.getTime()) ? value : null}
      onChange={(next) => props.onChange(next ? new Date(next).toISOString() : props.options.emptyValue)}
      minDate={range.minDate}
      maxDate={range.maxDate}
      withSeconds
      clearable
      valueFormat="DD/MM/YYYY HH:mm:ss"
      popoverProps={{ zIndex: 4000 }}
    />
  );
}
