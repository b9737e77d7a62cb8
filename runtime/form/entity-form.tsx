import { useCallback, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import Form from '@rjsf/core';
import { TranslatableString, type RJSFSchema, type RJSFValidationError, type Widget } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { Alert } from '@mantine/core';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { useCan } from '../permissions/permissions-context.tsx';
import type { CrudOperation } from '../core/crud-dialog-state.ts';
import type { EntityRecord } from '../crud/prepare-record.ts';
import { acceptAllValidator, createFormValidator } from './form-validator.ts';
import { checkWidgetNames } from './form-theme.ts';
import { useFormTheme } from './use-form-theme.ts';
import { prepareFormSchemas, type FormSchemas } from './prepare-form-schemas.ts';
import { createErrorTransformer, rootFieldOfProperty, rootFieldOfWidgetId } from './translate-errors.ts';
import { toExtraErrors } from './to-extra-errors.ts';
import { hiddenRootFields, withoutFields } from './visibility.ts';
import { toFormData } from './to-form-data.ts';
import { isPointerPressingButton } from './pressed-button.ts';
import type { EntityFormContext } from './entity-form-context.ts';

export interface EntityFormHandle {
  /** Runs schema validation, shows the errors, and says whether the data is valid. */
  validate(): boolean;
  /** The current data, without values of hidden fields. */
  getData(): EntityRecord;
  /** Whether the user changed the data since the form opened (asks before discarding it). */
  isDirty?(): boolean;
}

export interface EntityFormProps {
  model: ClientEntityModel;
  /** The generated JSON Schema + UI schema (src/generated/forms.ts loaders). */
  schemas: FormSchemas;
  operation: CrudOperation;
  initialData: EntityRecord;
  /** Server input errors by field path, shown on their fields. */
  fieldErrors?: Record<string, string[]>;
  onChange?: (data: EntityRecord) => void;
  handle?: Ref<EntityFormHandle>;
  /** Per-field widget overrides (override registry fieldWidgets). */
  fieldWidgets?: Record<string, Widget>;
  id?: string;
}

const NO_FIELD_WIDGETS: Record<string, Widget> = {};
const NO_ERRORS: Record<string, string[]> = {};

/** The generated schemas rendered with RJSF + Mantine widgets (docs/product-rules.md#screens, #entities, #validation). */
export function EntityForm(props: EntityFormProps) {
  const { model, schemas, operation, fieldWidgets = NO_FIELD_WIDGETS, fieldErrors = NO_ERRORS } = props;
  const { t, i18n } = useTranslation();
  const can = useCan();
  const theme = useFormTheme();
  const readonly = operation === 'view' || operation === 'delete';
  const mode = readonly ? 'readonly' : operation === 'create' ? 'create' : 'edit';
  const language = i18n.language;

  const prepared = useMemo(() => {
    const result = prepareFormSchemas(schemas, { model, translate: (key) => t(key), can, mode });
    // The theme's widget for a field type (the app's choice) replaces the type's own; hidden stays hidden.
    for (const field of model.fields) {
      const widget = theme.fieldTypeWidgets[field.type];
      const ui = result.uiSchema[field.name] as Record<string, unknown> | undefined;
      if (widget && ui && ui['ui:widget'] !== 'hidden') ui['ui:widget'] = widget;
    }
    for (const name of Object.keys(fieldWidgets)) {
      const ui = (result.uiSchema[name] ??= {}) as Record<string, unknown>;
      ui['ui:widget'] = fieldWidgets[name];
    }
    checkWidgetNames(result.uiSchema, result.schema as RJSFSchema, theme, model.name);
    return result;
    // `language` re-translates titles when the user switches locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schemas, model, can, mode, fieldWidgets, theme, language]);

  const rootFields = useMemo(() => Object.keys((prepared.schema.properties ?? {}) as object), [prepared]);
  // Precompiled by the generator: no schema is compiled here, so the CSP needs no 'unsafe-eval'.
  // Without them the form still opens and saves: the dialog says the server will check it.
  const [clientValidation, setClientValidation] = useState<'ready' | 'unavailable'>('ready');
  const validator = useMemo(() => {
    try {
      // Reported from RJSF's render: the state changes after it, not during it.
      return createFormValidator(schemas.validateFns, prepared.schema, () => queueMicrotask(() => setClientValidation('unavailable')));
    } catch {
      return null;
    }
  }, [schemas.validateFns, prepared]);
  // Fields are checked as the user leaves them (docs/product-rules.md#validation: IPv4/IPv6 "on blur"), all of them on submit.
  const touched = useRef(new Set<string>());
  const submitted = useRef(false);
  const transformErrors = useMemo(() => {
    const translateErrors = createErrorTransformer(prepared.schema, (key, values) => t(key, (values ?? {}) as Record<string, string>));
    return (errors: Parameters<typeof translateErrors>[0]) =>
      translateErrors(submitted.current ? errors : errors.filter((error) => touched.current.has(rootFieldOfProperty(error.property))));
  }, [prepared, t]);
  const formRef = useRef<Form>(null);
  // A refused Crear or Guardar takes the user to the first field at fault (in a long form it may be
  // scrolled out of sight); the validation on blur never moves the focus.
  const focusOnSubmit = useRef(false);
  const focusFirstError = useCallback((error: RJSFValidationError) => {
    if (focusOnSubmit.current) formRef.current?.focusOnError(error);
  }, []);
  const handleBlur = useCallback(
    (id: string) => {
      const field = rootFieldOfWidgetId(id, rootFields);
      if (field) touched.current.add(field);
      // A blur caused by pressing a button (Crear, Cancelar) does not re-validate: a line of error
      // text appearing or going away would move the button between press and release and the
      // click would be lost (issue 27 item 2). The button's own action validates, or discards.
      if (isPointerPressingButton() || !validator) return;
      queueMicrotask(() => formRef.current?.validateForm());
    },
    [rootFields, validator],
  );
  // Data changes before the user touches a field are RJSF's defaults, not edits.
  const userActed = useRef(false);
  const baseline = useRef<string | null>(null);
  const handleFocus = useCallback(() => {
    userActed.current = true;
  }, []);
  const extraErrors = useMemo(() => toExtraErrors(fieldErrors, (reason) => t(reason)), [fieldErrors, t]);
  const formContext = useMemo<EntityFormContext>(() => ({ can }), [can]);
  const translateString = useCallback(
    (key: TranslatableString, params?: string[]) => {
      if (key === TranslatableString.AddItemButton || key === TranslatableString.AddButton) return t('form.add');
      if (key === TranslatableString.RemoveButton) return t('form.remove');
      return params ? params.reduce((text, param, index) => text.replace(`%${index + 1}`, param), key as string) : key;
    },
    [t],
  );

  const [formData, setFormData] = useState<EntityRecord>(() => toFormData(props.initialData, prepared.schema));
  const initialFormData = useRef(formData);
  const dataRef = useRef(formData);
  const onChangeProp = props.onChange;

  const handleChange = useCallback(
    (event: { formData?: EntityRecord }) => {
      const data = event.formData ?? {};
      const next = withoutFields(data, hiddenRootFields(prepared.uiSchema, rootFields, data));
      if (!userActed.current) baseline.current = JSON.stringify(next);
      dataRef.current = next;
      setFormData(next);
      onChangeProp?.(next);
    },
    [prepared, rootFields, onChangeProp],
  );

  useImperativeHandle(
    props.handle,
    () => ({
      validate: () => {
        submitted.current = true;
        // Without validators the form already says so; the server decides.
        if (!validator) return true;
        focusOnSubmit.current = true;
        try {
          return formRef.current?.validateForm() ?? false;
        } finally {
          focusOnSubmit.current = false;
        }
      },
      getData: () => dataRef.current,
      isDirty: () => userActed.current && JSON.stringify(dataRef.current) !== (baseline.current ?? JSON.stringify(initialFormData.current)),
    }),
    [validator],
  );

  return (
    <>
    {(clientValidation === 'unavailable' || !validator) && (
      <Alert color="yellow" role="status" mb="sm">
        {t('form.clientValidationUnavailable')}
      </Alert>
    )}
    <Form
      ref={formRef}
      id={props.id}
      schema={prepared.schema as RJSFSchema}
      uiSchema={prepared.uiSchema}
      formData={formData}
      validator={validator ?? acceptAllValidator}
      // Validated on blur by handleBlur (not while a button is pressed), and on submit.
      onBlur={handleBlur}
      onFocus={handleFocus}
      // The errors show at their fields; RJSF would also log them to the console.
      onError={() => undefined}
      widgets={theme.widgets}
      fields={theme.fields}
      templates={theme.templates}
      formContext={formContext}
      transformErrors={transformErrors}
      extraErrors={extraErrors}
      translateString={translateString}
      onChange={handleChange}
      readonly={readonly}
      showErrorList={false}
      focusOnFirstError={focusFirstError}
      noHtml5Validate
      // Submission is the dialog's (CrudPage): Enter in a field must not post the form.
      onSubmit={() => undefined}
    >
      <></>
    </Form>
    </>
  );
}
