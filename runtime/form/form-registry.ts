import type { RegistryFieldsType, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
// Templates only: the theme's widget index pulls dayjs plugins through an ESM-incompatible path.
import MantineTemplates from '@rjsf/mantine/lib/templates/index.js';
import { BaseInputTemplate } from './widgets/base-input-template.tsx';
import { TextareaWidget } from './widgets/textarea-widget.tsx';
import { PasswordWidget } from './widgets/password-widget.tsx';
import { SelectWidget } from './widgets/select-widget.tsx';
import { SwitchWidget } from './widgets/switch-widget.tsx';
import { DateTimeWidget } from './widgets/date-time-widget.tsx';
import { RefMultiWidget, RefWidget } from './widgets/ref-widget.tsx';
import { FileWidget } from './widgets/file-widget.tsx';
import { FullFileField } from './widgets/full-file-field.tsx';
import { NumberField } from './number-field.tsx';
import { SectionedObjectTemplate } from './templates/sectioned-object-template.tsx';
import { ArrayFieldTitleTemplate } from './templates/array-field-title-template.tsx';

/**
 * Widgets by the names the generated UI schemas use (ui:widget) and RJSF's own defaults for the
 * same types. Module-level objects: RJSF re-renders every field when these identities change.
 */
export const formWidgets: RegistryWidgetsType = {
  TextareaWidget,
  textarea: TextareaWidget,
  PasswordWidget,
  password: PasswordWidget,
  SelectWidget,
  select: SelectWidget,
  CheckboxWidget: SwitchWidget,
  checkbox: SwitchWidget,
  DateWidget: DateTimeWidget,
  DateTimeWidget,
  date: DateTimeWidget,
  FileWidget,
  file: FileWidget,
  ref: RefWidget,
  refMulti: RefMultiWidget,
};

export const formFields: RegistryFieldsType = {
  fullFile: FullFileField,
  NumberField,
};

export const formTemplates: Partial<TemplatesType> = {
  ...MantineTemplates,
  BaseInputTemplate,
  ObjectFieldTemplate: SectionedObjectTemplate,
  ArrayFieldTitleTemplate,
};
