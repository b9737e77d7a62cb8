import type { FieldProps } from '@rjsf/utils';

/**
 * RJSF's NumberField, replaced: it rewrites what the widget receives and sends with the
 * browser's decimal separator (a Spanish browser got "0,5" as text, which Mantine then showed as
 * "05") and strips trailing zeros and points. The number widget (inputs/number-text-input.tsx)
 * reads and writes numbers itself, in the UI language, so this passes values through unchanged.
 */
export function NumberField(props: FieldProps) {
  const { StringField } = props.registry.fields;
  return <StringField {...props} />;
}
