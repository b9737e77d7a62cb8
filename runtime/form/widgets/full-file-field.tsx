import type { FieldProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { FileDrop } from '../../inputs/file-drop.tsx';
import type { UploadedFile } from '../../transport/rest-transport.ts';

/** fullFile: an RJSF field (its value is an object) storing the whole uploaded-file record. */
export function FullFileField(props: FieldProps) {
  const options = getUiOptions(props.uiSchema);
  const value = props.formData as UploadedFile | null | undefined;
  const errors = props.errorSchema?.__errors ?? [];
  return (
    <FileDrop
      id={props.fieldPathId.$id}
      label={props.schema.title}
      description={props.schema.description}
      required={props.required}
      disabled={props.disabled || props.readonly}
      error={errors.length > 0 ? errors.join('\n') : undefined}
      accept={options.accept as string | undefined}
      current={value?.url ? { url: value.url, name: value.filename || value.url } : null}
      onUploaded={(file) => props.onChange(file, props.fieldPathId.path)}
      onClear={() => props.onChange(null, props.fieldPathId.path)}
    />
  );
}
