import { TextInput } from '@mantine/core';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { NumberTextInput } from '../../inputs/number-text-input.tsx';
import { widgetInputProps } from './widget-input-props.ts';

/** string and number fields. Written here because the theme's spreads every ui:option onto the DOM. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const common = widgetInputProps(props);
  const type = Array.isArray(props.schema.type) ? props.schema.type.find((t) => t !== 'null') : props.schema.type;
  if (type === 'number' || type === 'integer') {
    return (
      <NumberTextInput
        {...common}
        placeholder={props.placeholder}
        value={props.value}
        onChange={(value) => props.onChange(value)}
      />
    );
  }
  return (
    <TextInput
      {...common}
      type={props.type === 'password' ? 'password' : 'text'}
      placeholder={props.placeholder}
      value={props.value ?? ''}
      onChange={(event) => props.onChange(event.currentTarget.value === '' ? props.options.emptyValue : event.currentTarget.value)}
    />
  );
}
