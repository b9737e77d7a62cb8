import type { WidgetProps } from '@rjsf/utils';
import type { RefModel } from '../../model/client-entity-model.ts';
import { RefMultiSelect, RefSelect } from '../../inputs/ref-select.tsx';
import { widgetInputProps } from './widget-input-props.ts';

function refOptions(props: WidgetProps): RefModel {
  const ref = props.options.ref as RefModel | undefined;
  if (!ref) throw new Error(`Field "${props.id}" uses the ref widget without ui:options.ref`);
  return ref;
}

/** ref: autocomplete over the referenced entity; stores its _id. */
export function RefWidget(props: WidgetProps) {
  const ref = refOptions(props);
  const { onFocus: _focus, onBlur, ...common } = widgetInputProps(props);
  return (
    <RefSelect
      {...common}
      onBlur={onBlur}
      entity={ref.entity}
      display={ref.display}
      clearable={ref.clearable}
      value={(props.value as string | null) ?? null}
      onChange={(value) => props.onChange(value ?? props.options.emptyValue)}
    />
  );
}

/** array.ref: multi-select of the referenced entity shown as chips; stores the ids. */
export function RefMultiWidget(props: WidgetProps) {
  const ref = refOptions(props);
  const { onFocus: _focus, onBlur, ...common } = widgetInputProps(props);
  return (
    <RefMultiSelect
      {...common}
      onBlur={onBlur}
      entity={ref.entity}
      display={ref.display}
      clearable={ref.clearable}
      value={Array.isArray(props.value) ? (props.value as string[]) : []}
      onChange={props.onChange}
    />
  );
}
