import type { WidgetProps } from '@rjsf/utils';

/** The props every Mantine input shares, from RJSF's widget props. */
export function widgetInputProps(props: WidgetProps) {
  return {
    id: props.id,
    label: props.hideLabel ? undefined : props.label,
    description: props.hideLabel ? undefined : (props.schema.description as string | undefined),
    required: props.required,
    disabled: props.disabled || props.readonly,
    error: props.rawErrors && props.rawErrors.length > 0 ? props.rawErrors.join('\n') : undefined,
    onBlur: () => props.onBlur(props.id, props.value),
    onFocus: () => props.onFocus(props.id, props.value),
  };
}
