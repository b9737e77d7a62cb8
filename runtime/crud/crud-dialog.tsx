import { Suspense, useRef } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Widget } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { useRuntime } from '../context/runtime-context.tsx';
import type { EntityFormHandle } from '../form/entity-form.tsx';
import { LazyEntityForm } from '../form/lazy-entity-form.ts';
import type { FormOverride } from '../overrides/override-registry.ts';
import type { CrudDialogState } from './crud-dialog-state.ts';
import type { EntityRecord } from './prepare-record.ts';
import { crudFormQuery } from './crud-form-query.ts';

export interface CrudDialogProps {
  model: ClientEntityModel;
  state: CrudDialogState;
  onSubmit: (data: EntityRecord, validate: () => boolean) => void;
  onCancel: () => void;
  form?: FormOverride;
  fieldWidgets?: Record<string, Widget>;
  /** Override hook: false hides the submit button of edit and delete for this record. */
  canSubmit?: (record: Record<string, unknown>) => boolean;
}

/** The one dialog for view, create, edit and delete, sized by the entity's dialog settings. */
export function CrudDialog({ model, state, onSubmit, onCancel, form: FormComponent = LazyEntityForm, fieldWidgets, canSubmit }: CrudDialogProps) {
  const { t } = useTranslation();
  const { forms } = useRuntime();
  const handle = useRef<EntityFormHandle>(null);
  const operation = state.operation;
  if (!forms[model.name]) throw new Error(`Form schemas for entity "${model.name}" not found`);
  const schemas = useQuery({ ...crudFormQuery(model.name, forms, FormComponent), enabled: operation !== null });

  return (
    <Modal
      opened={operation !== null}
      onClose={onCancel}
      title={operation ? t(`crud.title.${operation}`, { entity: t(model.label) }) : undefined}
      fullScreen={model.dialog.fullscreen}
      size={model.dialog.maxWidth ?? 'lg'}
      zIndex={model.dialog.zIndex}
      closeOnClickOutside={!state.loading}
    >
      {operation && (
        <Stack>
          {state.error && (
            <Alert color="red" role="alert">
              {t(state.error, state.errorParams)}
            </Alert>
          )}
          {operation === 'delete' && <Text>{t('crud.confirmDelete')}</Text>}
          {schemas.data ? (
            // The query above has fetched the form's chunk, but React.lazy still suspends once on its first render.
            <Suspense fallback={<FormLoader />}>
              <FormComponent
                // A new record (or operation) starts a fresh form.
                key={`${operation}:${String(state.record?._id ?? '')}`}
                model={model}
                schemas={schemas.data}
                operation={operation}
                initialData={state.record ?? {}}
                fieldErrors={state.fieldErrors}
                handle={handle}
                fieldWidgets={fieldWidgets}
                id={`crud-form-${model.name}`}
              />
            </Suspense>
          ) : schemas.isError ? (
            // The form's code or schemas failed to load (offline, or a chunk gone after a release).
            <Alert color="red" role="alert">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t('crud.formLoadFailed')}</Text>
                <Button size="xs" variant="light" onClick={() => void schemas.refetch()}>
                  {t('crud.retry')}
                </Button>
              </Stack>
            </Alert>
          ) : (
            <FormLoader />
          )}
          <Group justify="flex-end">
            {operation === 'view' ? (
              // Submitting a view just closes it, reported as "viewed" (spec §4).
              <Button variant="default" onClick={() => onSubmit(state.record ?? {}, () => true)}>
                {t('crud.close')}
              </Button>
            ) : (
              <>
                <Button variant="default" onClick={onCancel} disabled={state.loading}>
                  {t('crud.cancel')}
                </Button>
                {(operation === 'create' || !canSubmit || canSubmit(state.record ?? {})) && <Button
                  color={operation === 'delete' ? 'red' : undefined}
                  loading={state.loading}
                  disabled={!schemas.data}
                  onClick={() => onSubmit(handle.current?.getData() ?? {}, () => handle.current?.validate() ?? false)}
                >
                  {t(operation === 'delete' ? 'crud.delete' : operation === 'create' ? 'crud.create' : 'crud.submit')}
                </Button>}
              </>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function FormLoader() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}
