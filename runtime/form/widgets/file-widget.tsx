import type { WidgetProps } from '@rjsf/utils';
import { FileDrop } from '../../inputs/file-drop.tsx';
import { widgetInputProps } from './widget-input-props.ts';

/** file: uploads and stores the file's url. */
export function FileWidget(props: WidgetProps) {
  const { onBlur: _b, onFocus: _f, ...common } = widgetInputProps(props);
  const url = typeof props.value === 'string' && props.value ? props.value : null;
  return (
    <FileDrop
      {...common}
      accept={props.options.accept as string | undefined}
      current={url ? { url, name: url.split('/').pop() ?? url } : null}
      onUploaded={(file) => props.onChange(file.url)}
      onClear={() => props.onChange(props.options.emptyValue ?? null)}
    />
  );
}
