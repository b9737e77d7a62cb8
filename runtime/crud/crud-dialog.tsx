import { Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Widget } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import type { ClientEntityModel } from '../model/client-entity-model.ts';
import { useRuntime } from '../context/runtime-context.tsx';
import type { EntityFormHandle } from '../form/entity-form.tsx';
import { LazyEntityForm } from '../form/lazy-entity-form.ts';
import type { FormOverride } from '../overrides/override-registry.ts';
import type { CrudDialogState } from '../core/crud-dialog-state.ts';
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
  const editing = operation === 'create' || operation === 'edit';
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const isDirty = () => editing && (handle.current?.isDirty?.() ?? false);
  // Escape, ×, a click outside and Cancelar all come here: typed data is never dropped unasked.
  const requestClose = () => {
    if (state.loading) return;
    // A second Escape (or ×) while asking answers "keep editing"; Discard is a deliberate click.
    if (confirmingDiscard) setConfirmingDiscard(false);
    else if (isDirty()) setConfirmingDiscard(true);
    else onCancel();
  };
  const submit = () => onSubmit(handle.current?.getData() ?? {}, () => handle.current?.validate() ?? false);
  // Leaving the page (reload, closing the tab, another site) with unsaved changes asks the browser's question.
  useEffect(() => {
    if (!editing) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!handle.current?.isDirty?.()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [editing]);
  useEffect(() => {
    if (operation === null) setConfirmingDiscard(false);
  }, [operation]);
  // Enter in a one-line field submits, as in any form; not in a text area, nor in a picker or tag
  // input (Enter chooses there), nor while composing text (IME).
  const submitOnEnter = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey || event.nativeEvent.isComposing) return;
    if (!editing && operation !== 'delete') return;
    const target = event.target as HTMLElement;
    if (!(target instanceof HTMLInputElement) || !SINGLE_LINE_TYPES.has(target.type)) return;
    if (target.getAttribute('role') === 'combobox' || target.hasAttribute('aria-haspopup') || target.closest('[data-enter-keeps]')) return;
    if (!schemas.data || state.loading || (operation !== 'create' && canSubmit && !canSubmit(state.record ?? {}))) return;
    event.preventDefault();
    submit();
  };

  return (
    <Modal
      opened={operation !== null}
      onClose={requestClose}
      title={operation ? t(`crud.title.${operation}`, { entity: t(model.label) }) : undefined}
      fullScreen={model.dialog.fullscreen}
      size={model.dialog.maxWidth ?? 'lg'}
      zIndex={model.dialog.zIndex}
      closeOnClickOutside={!state.loading}
    >
      {operation && (
        <Stack onKeyDown={submitOnEnter}>
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
          {confirmingDiscard && (
            // In the dialog, not a second one over it: the question sits where the buttons are.
            <Alert color="yellow" role="alertdialog" aria-label={t('crud.discard.title')} title={t('crud.discard.title')} data-testid="crud-discard-confirm">
              <Stack gap="xs">
                <Text size="sm">{t('crud.discard.question')}</Text>
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setConfirmingDiscard(false)} data-autofocus>
                    {t('crud.discard.keep')}
                  </Button>
                  <Button color="red" onClick={() => { setConfirmingDiscard(false); onCancel(); }}>
                    {t('crud.discard.confirm')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" hidden={confirmingDiscard}>
            {operation === 'view' ? (
              // Submitting a view just closes it, reported as "viewed" (docs/product-rules.md#states).
              <Button variant="default" onClick={() => onSubmit(state.record ?? {}, () => true)}>
                {t('crud.close')}
              </Button>
            ) : (
              <>
                <Button variant="default" onClick={requestClose} disabled={state.loading}>
                  {t('crud.cancel')}
                </Button>
                {(operation === 'create' || !canSubmit || canSubmit(state.record ?? {})) && (
                  // A disabled button says why (it is only disabled while the form loads).
                  <Tooltip label={t('crud.submitDisabled.loading')} disabled={Boolean(schemas.data)}>
                    <Button
                      color={operation === 'delete' ? 'red' : undefined}
                      loading={state.loading}
                      disabled={!schemas.data}
                      aria-description={schemas.data ? undefined : t('crud.submitDisabled.loading')}
                      onClick={submit}
                    >
                      {t(operation === 'delete' ? 'crud.delete' : operation === 'create' ? 'crud.create' : 'crud.submit')}
                    </Button>
                  </Tooltip>
                )}
              </>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

const SINGLE_LINE_TYPES = new Set(['text', 'email', 'number', 'password', 'search', 'tel', 'url']);

function FormLoader() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}
