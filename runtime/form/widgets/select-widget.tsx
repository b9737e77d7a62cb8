import { useMemo } from 'react';
import { MultiSelect, Select } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { widgetInputProps } from './widget-input-props.ts';

/** enum (and array.enum as a multi-select); option labels from the field's valueLabels keys. */
export function SelectWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const labels = props.options.valueLabels as Record<string, string> | undefined;
  const enumOptions = props.options.enumOptions;
  const data = useMemo(
    () => (enumOptions ?? []).map((option) => ({ value: String(option.value), label: labels?.[String(option.value)] ? t(labels[String(option.value)]) : String(option.label) })),
    [enumOptions, labels, t],
  );
  const common = widgetInputProps(props);
  if (props.multiple) {
    return <MultiSelect {...common} data={data} value={(props.value as string[]) ?? []} onChange={props.onChange} clearable comboboxProps={{ zIndex: 4000 }} />;
  }
  return (
    <Select
      {...common}
      data={data}
      value={props.value ?? null}
      onChange={(value) => props.onChange(value ?? props.options.emptyValue)}
      clearable={!props.required}
      comboboxProps={{ zIndex: 4000 }}
    />
  );
}
