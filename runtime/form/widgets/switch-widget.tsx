import { Switch } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { widgetInputProps } from './widget-input-props.ts';

/** boolean fields as a switch. */
export function SwitchWidget(props: WidgetProps) {
  const { error, ...common } = widgetInputProps(props);
  return (
    <Switch
      {...common}
      label={props.label}
      error={error}
      checked={Boolean(props.value)}
      onChange={(event) => props.onChange(event.currentTarget.checked)}
      mt="xs"
    />
  );
}
