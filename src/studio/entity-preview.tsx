import { useMemo, useReducer, useState } from 'react';
import { Alert, Group, Paper, SegmentedControl, Stack, Title, useMantineColorScheme } from '@mantine/core';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import { EntityForm } from '../../runtime/form/entity-form.tsx';
import { EntityTable } from '../../runtime/table/entity-table.tsx';
import { initialTableState, tableReducer } from '../../runtime/table/table-state.ts';
import { useCan } from '../../runtime/permissions/permissions-context.tsx';
import type { ClientEntityModel } from '../../runtime/model/client-entity-model.ts';
import { EntityErrorBoundary } from '../../runtime/errors/entity-error-boundary.tsx';
import type { DraftPreview, StudioTexts } from './studio-api.ts';
import { sampleRows } from './sample-rows.ts';

/** No precompiled validators for a draft: the form says the server checks it (runtime/form/entity-form.tsx). */
const NO_VALIDATORS = {} as ValidatorFunctions;

/**
 * The draft entity as the CRUD pages will show it: its create form through the same renderer
 * (runtime/form/entity-form.tsx) and its table with sample rows, in Spanish or English, dark or light.
 */
export function EntityPreview({ preview, texts }: { preview: DraftPreview | null; texts: StudioTexts }) {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState(i18n.language.startsWith('en') ? 'en' : 'es');
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  // A copy of the console's i18n with the draft's texts in, so unsaved labels read as they will.
  // Its own store (forkResourceStore): the draft's texts never reach the console's, nor wake its listeners mid-render.
  const previewI18n = useMemo(() => {
    const copy = i18n.cloneInstance({ lng: language, forkResourceStore: true });
    // The fork copies two levels only: the nested groups the draft's keys land in must be copies too.
    copy.store.data = structuredClone(i18n.store.data);
    for (const [key, pair] of Object.entries(texts)) {
      for (const locale of ['es', 'en'] as const) copy.addResource(locale, (copy.options.defaultNS as string) ?? 'translation', key, pair[locale], { silent: true });
    }
    return copy;
  }, [i18n, language, texts]);

  return (
    <Paper withBorder p="sm" aria-label={t('studio.preview')} component="section">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">{t('studio.preview')}</Title>
          <Group gap="xs">
            <SegmentedControl size="xs" value={language} onChange={setLanguage} data={[{ value: 'es', label: 'ES' }, { value: 'en', label: 'EN' }]} aria-label={t('studio.previewLanguage')} />
            <SegmentedControl size="xs" value={colorScheme === 'dark' ? 'dark' : 'light'} onChange={(v) => setColorScheme(v as 'dark' | 'light')}
              data={[{ value: 'light', label: t('studio.light') }, { value: 'dark', label: t('studio.dark') }]} aria-label={t('studio.previewTheme')} />
          </Group>
        </Group>
        {!preview ? <Alert color="gray">{t('studio.noPreview')}</Alert> : (
          <I18nextProvider i18n={previewI18n}>
            <PreviewBody preview={preview} />
          </I18nextProvider>
        )}
      </Stack>
    </Paper>
  );
}

function PreviewBody({ preview }: { preview: DraftPreview }) {
  const { t } = useTranslation();
  const model = preview.model as unknown as ClientEntityModel;
  const can = useCan();
  const schemas = useMemo(() => ({ schema: preview.schema, uiSchema: preview.uiSchema, validateFns: NO_VALIDATORS }), [preview]);
  const rows = useMemo(() => sampleRows(model), [model]);
  const [state, dispatch] = useReducer(tableReducer, undefined, () => initialTableState());
  return (
    <EntityErrorBoundary entity={model.name} key={JSON.stringify(preview.schema)}>
      <Stack gap="sm" data-testid="studio-preview">
        <Title order={3} size="h5">{t(model.label)}</Title>
        <EntityForm model={model} schemas={schemas} operation="create" initialData={{}} id="studio-preview-form" />
        <EntityTable model={model} can={can} state={state} dispatch={dispatch} searchText="" onSearchTextChange={() => undefined} rows={rows} total={rows.length} loading={false} />
      </Stack>
    </EntityErrorBoundary>
  );
}
