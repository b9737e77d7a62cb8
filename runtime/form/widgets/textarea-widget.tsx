import { Textarea } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { widgetInputProps } from './widget-input-props.ts';

/** docs/product-rules.md#entities: longString, 5 rows unless the field says otherwise. */
export const DEFAULT_TEXTAREA_ROWS = 5;

export function TextareaWidget(props: WidgetProps) {
  const rows = typeof props.options.rows === 'number' ? props.options.rows : DEFAULT_TEXTAREA_ROWS;
  return (
    <Textarea
      {...widgetInputProps(props)}
      rows={rows}
      placeholder={props.placeholder}
      value={props.value ?? ''}
      onChange={(event) => props.onChange(event.currentTarget.value === '' ? props.options.emptyValue : event.currentTarget.value)}
    />
  );
}
