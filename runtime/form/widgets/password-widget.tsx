import { PasswordInput } from '@mantine/core';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { widgetInputProps } from './widget-input-props.ts';

/** Password with a show/hide toggle (docs/product-rules.md#entities). */
export function PasswordWidget(props: WidgetProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...widgetInputProps(props)}
      autoComplete="new-password"
      value={props.value ?? ''}
      visibilityToggleButtonProps={{ 'aria-label': t('form.showPassword') }}
      onChange={(event) => props.onChange(event.currentTarget.value === '' ? props.options.emptyValue : event.currentTarget.value)}
    />
  );
}
