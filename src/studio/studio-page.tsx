import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Grid, Group, NavLink, Paper, Stack, Tabs, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RJSFSchema } from '@rjsf/utils';
import { isApiError } from '../../runtime/transport/api-error.ts';
import { PageFallback } from '../app/page-fallback.tsx';
import { studioApi, type Manifest, type ManifestField, type StudioIssue, type StudioList, type StudioTexts, type ValidateResult } from './studio-api.ts';
import { ManifestForm } from './manifest-form.tsx';
import { describe, entityIssuePath, fieldIssuePath, issueErrors } from './issue-errors.ts';
import { SaveDialog } from './save-dialog.tsx';
import { NewEntityDialog } from './new-entity-dialog.tsx';
import { EntityPreview } from './entity-preview.tsx';
import { withPickers } from './with-pickers.ts';
import { resolveManifestAliases } from '../../contract/model/resolve-manifest-aliases.ts';
import { manifestIcons } from '../generated/icons.ts';

/** What is being edited: the manifest, the texts of its locale keys, and the version it started from (null: new). */
interface Draft {
  manifest: Manifest;
  texts: StudioTexts;
  version: string | null;
  /** The manifest as saved (renames are detected against it); null for a new entity. */
  saved: Manifest | null;
  /** The file holding it (manifests/botTrace.json holds "bottrace"); null for a new entity (manifests/<name>.json). */
  file: string | null;
}

/** The entity a draft was opened as, which the server saves it as (null: a new one). */
const entityOf = (draft: Draft) => draft.saved?.name ?? null;
const fileOf = (draft: Draft) => draft.file ?? `manifests/${draft.manifest.name}.json`;

const VALIDATE_DELAY_MS = 400;

/** /studio: the schema studio (README.md "Schema studio"). */
export default function StudioPage() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['studio', 'manifests'], queryFn: ({ signal }) => studioApi.list(signal), retry: false });
  if (list.isPending) return <PageFallback />;
  if (list.isError) {
    const off = isApiError(list.error) && list.error.status === 404;
    return <Alert color={off ? 'gray' : 'red'} title={t('studio.title')}>{off ? t('studio.off') : String(list.error.message)}</Alert>;
  }
  return <Studio list={list.data} />;
}

function Studio({ list }: { list: StudioList }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [creating, setCreating] = useState(false);
  const [selectedField, setSelectedField] = useState<number | null>(null);
  const [checked, setChecked] = useState<ValidateResult | null>(null);
  const [checking, setChecking] = useState(false);
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const open = useCallback((name: string) => {
    const entry = list.manifests.find((m) => m.name === name);
    if (!entry?.manifest) return;
    setDraft({ manifest: structuredClone(entry.manifest), texts: structuredClone(entry.texts), version: entry.version, saved: entry.manifest, file: entry.file });
    setSelectedField(null);
  }, [list]);

  // The generator's check, debounced as the user types; the latest answer wins.
  const request = useRef(0);
  useEffect(() => {
    if (!draft) return;
    setJsonText(`${JSON.stringify(draft.manifest, null, 2)}\n`);
    setJsonError(null);
    const id = ++request.current;
    const controller = new AbortController();
    setChecking(true);
    const timer = setTimeout(() => {
      studioApi.validate({ manifest: draft.manifest, texts: draft.texts, entity: entityOf(draft) }, controller.signal).then(
        (result) => { if (id === request.current) { setChecked(result); setChecking(false); } },
        (error: unknown) => {
          if (id !== request.current || controller.signal.aborted) return;
          setChecked({ ok: false, issues: [{ file: fileOf(draft), path: '', message: isApiError(error) ? error.message : String(error) }], preview: null });
          setChecking(false);
        },
      );
    }, VALIDATE_DELAY_MS);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [draft]);

  const metaSchema = list.metaSchema;
  // Pickers (with-pickers.ts): a reference names one of these entities (the draft's own included), an icon one the build has.
  const draftName = draft?.manifest.name;
  const choices = useMemo(() => ({ entities: [...list.manifests.map((m) => m.name), ...(draftName ? [draftName] : [])], icons: Object.keys(manifestIcons) }), [list, draftName]);
  const fieldSchema = useMemo(() => withPickers({ ...metaSchema.$defs.field, $defs: metaSchema.$defs }, choices) as RJSFSchema, [metaSchema, choices]);
  const entitySchema = useMemo(() => {
    const { fields: _fields, $schema: _s, ...properties } = metaSchema.properties;
    const { required = [] } = metaSchema as { required?: string[] };
    return withPickers({ type: 'object', properties, required: required.filter((r) => r !== 'fields'), $defs: metaSchema.$defs }, choices) as RJSFSchema;
  }, [metaSchema, choices]);

  const issues: StudioIssue[] = checked?.issues ?? [];
  const update = (change: (manifest: Manifest) => Manifest, texts?: StudioTexts) =>
    setDraft((current) => (current ? { ...current, manifest: change(current.manifest), texts: texts ?? current.texts } : current));
  const fields = (draft?.manifest.fields ?? []) as ManifestField[];

  const setField = (index: number, value: ManifestField) => update((manifest) => {
    const next = [...fields];
    const before = next[index]!;
    const renamed = { ...value };
    // Renaming a saved field moves its column and data (renamedFrom), instead of adding an empty one.
    const savedNames = ((draft?.saved?.fields ?? []) as ManifestField[]).map((f) => f.name);
    if (before.name !== value.name && savedNames.includes(before.name) && !savedNames.includes(value.name) && !value.renamedFrom) renamed.renamedFrom = before.name;
    next[index] = renamed;
    return { ...manifest, fields: next };
  });
  const move = (index: number, by: number) => update((manifest) => {
    const next = [...fields];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    setSelectedField(index + by);
    return { ...manifest, fields: next };
  });
  const remove = (index: number) => update((manifest) => ({ ...manifest, fields: fields.filter((_, i) => i !== index) }));
  const addField = () => {
    if (!draft) return;
    const taken = new Set(fields.map((f) => f.name));
    let n = fields.length + 1;
    while (taken.has(`field${n}`)) n += 1;
    const name = `field${n}`;
    const label = `field.${draft.manifest.name}.${name}`;
    update((manifest) => ({ ...manifest, fields: [...fields, { name, type: 'string', label }] }), { ...draft.texts, [label]: { es: name, en: name } });
    setSelectedField(fields.length);
  };
  const setText = (key: string, locale: 'es' | 'en', text: string) =>
    setDraft((current) => (current ? { ...current, texts: { ...current.texts, [key]: { ...(current.texts[key] ?? { es: '', en: '' }), [locale]: text } } } : current));

  const onJson = (text: string) => {
    setJsonText(text);
    try {
      const parsed = JSON.parse(text) as Manifest;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(t('studio.jsonNotObject'));
      setJsonError(null);
      // An old key name pasted in (api.provider) takes its current name here, as the server reads it.
      const resolved = resolveManifestAliases(draft ? fileOf(draft) : `manifests/${parsed.name}.json`, parsed);
      const manifest = resolved.issues.length > 0 ? parsed : (resolved.json as Manifest);
      setDraft((current) => (current ? { ...current, manifest } : current));
    } catch (error) {
      setJsonError((error as Error).message);
    }
  };

  const blocked = !draft || checking || jsonError !== null || issues.length > 0;
  const field = selectedField !== null ? fields[selectedField] : undefined;
  const labelKey = (value: unknown) => (typeof value === 'string' ? value : null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">{t('studio.title')}</Title>
        <Badge color="green" variant="light">{t('studio.liveDev')}</Badge>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 2 }}>
          <Paper withBorder p="xs">
            <nav aria-label={t('studio.entities')}>
              <Text fw={600} size="sm" mb="xs">{t('studio.entities')}</Text>
              {list.manifests.map((entry) => (
                <NavLink key={entry.name} label={entry.name} active={draft !== null && (entityOf(draft) ?? draft.manifest.name) === entry.name} onClick={() => open(entry.name)} description={entry.error} />
              ))}
              <Button mt="sm" size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setCreating(true)}>{t('studio.addEntity')}</Button>
            </nav>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          {!draft ? (
            <Text c="dimmed">{t('studio.pick')}</Text>
          ) : (
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={2} size="h3">{draft.manifest.name}{draft.version === null ? ` (${t('studio.new')})` : ''}</Title>
                <Button onClick={() => setSaving(true)} disabled={blocked} data-testid="studio-save">{t('studio.save')}</Button>
              </Group>
              {issues.length > 0 && (
                <Alert color="red" title={t('studio.issues', { count: issues.length })} data-testid="studio-issues">
                  <Stack gap={2}>{issues.slice(0, 20).map((issue, i) => <Text key={i} size="sm"><code>{issue.file}: {issue.path || '(file)'}</code> {describe(issue)}</Text>)}</Stack>
                </Alert>
              )}
              <Tabs defaultValue="fields" keepMounted={false}>
                <Tabs.List>
                  <Tabs.Tab value="fields">{t('studio.fields')}</Tabs.Tab>
                  <Tabs.Tab value="entity">{t('studio.entity')}</Tabs.Tab>
                  <Tabs.Tab value="json">{t('studio.json')}</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="fields" pt="sm">
                  <Stack gap="xs">
                    {fields.map((f, index) => (
                      <Group key={`${index}-${f.name}`} justify="space-between" wrap="nowrap" data-testid={`studio-field-${f.name}`}>
                        <Text size="sm" fw={selectedField === index ? 700 : 400}>{f.name} <Text span c="dimmed" size="xs">{f.type}</Text></Text>
                        <Group gap={4} wrap="nowrap">
                          <ActionIcon variant="subtle" aria-label={t('studio.moveUp', { name: f.name })} disabled={index === 0} onClick={() => move(index, -1)}><IconArrowUp size={16} /></ActionIcon>
                          <ActionIcon variant="subtle" aria-label={t('studio.moveDown', { name: f.name })} disabled={index === fields.length - 1} onClick={() => move(index, 1)}><IconArrowDown size={16} /></ActionIcon>
                          <ActionIcon variant="subtle" aria-label={t('studio.editField', { name: f.name })} onClick={() => setSelectedField(index)}><IconPencil size={16} /></ActionIcon>
                          <ActionIcon variant="subtle" color="red" aria-label={t('studio.removeField', { name: f.name })} onClick={() => { remove(index); setSelectedField(null); }}><IconTrash size={16} /></ActionIcon>
                        </Group>
                      </Group>
                    ))}
                    <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={addField} w="fit-content">{t('studio.addField')}</Button>
                    {field && selectedField !== null && (
                      <Paper withBorder p="sm" data-testid="studio-field-editor">
                        <Title order={3} size="h5" mb="xs">{t('studio.editingField', { name: field.name })}</Title>
                        <TextsEditor keys={[labelKey(field.label), labelKey(field.hint)]} texts={draft.texts} onText={setText} />
                        <ManifestForm
                          schema={fieldSchema}
                          value={field}
                          onChange={(value) => setField(selectedField, value as ManifestField)}
                          errors={issueErrors(issues, fieldIssuePath(field.name, selectedField))}
                          idPrefix={`studio-field-${selectedField}`}
                        />
                      </Paper>
                    )}
                  </Stack>
                </Tabs.Panel>
                <Tabs.Panel value="entity" pt="sm">
                  <TextsEditor keys={[labelKey(draft.manifest.label), labelKey(draft.manifest.labelPlural)]} texts={draft.texts} onText={setText} />
                  <ManifestForm
                    schema={entitySchema}
                    value={withoutFields(draft.manifest)}
                    onChange={(value) => update((manifest) => ({ ...(value as Manifest), fields: manifest.fields }))}
                    errors={issueErrors(issues, entityIssuePath)}
                    idPrefix="studio-entity"
                  />
                </Tabs.Panel>
                <Tabs.Panel value="json" pt="sm">
                  <Textarea
                    label={t('studio.jsonLabel', { file: fileOf(draft) })}
                    value={jsonText}
                    onChange={(event) => onJson(event.currentTarget.value)}
                    rows={24}
                    error={jsonError}
                    styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
                    spellCheck={false}
                  />
                </Tabs.Panel>
              </Tabs>
            </Stack>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {draft && <EntityPreview preview={checked?.preview ?? null} texts={draft.texts} />}
        </Grid.Col>
      </Grid>
      {creating && (
        <NewEntityDialog
          list={list}
          onClose={() => setCreating(false)}
          onCreate={(manifest, texts) => {
            setCreating(false);
            setDraft({ manifest, texts, version: null, saved: null, file: null });
            setSelectedField(null);
          }}
        />
      )}
      {saving && draft && (
        <SaveDialog
          manifest={draft.manifest}
          texts={draft.texts}
          entity={entityOf(draft)}
          file={fileOf(draft)}
          version={draft.version}
          onClose={() => setSaving(false)}
          onSaved={async (result) => {
            // The dialog stays open on its "saved" message and the link to the entity's page.
            setDraft((current) => (current ? { ...current, version: result.version, saved: current.manifest, file: result.file } : current));
            await queryClient.invalidateQueries({ queryKey: ['studio', 'manifests'] });
          }}
          onConflict={async () => {
            setSaving(false);
            const fresh = await queryClient.fetchQuery({ queryKey: ['studio', 'manifests'], queryFn: ({ signal }) => studioApi.list(signal) });
            const entry = fresh.manifests.find((m) => m.name === (entityOf(draft) ?? draft.manifest.name));
            if (entry?.manifest) setDraft({ manifest: structuredClone(entry.manifest), texts: entry.texts, version: entry.version, saved: entry.manifest, file: entry.file });
          }}
        />
      )}
    </Stack>
  );
}

function withoutFields(manifest: Manifest): Record<string, unknown> {
  const { fields: _fields, ...rest } = manifest;
  return rest;
}

/** The Spanish and English texts of the locale keys a manifest names (labels, hints). */
function TextsEditor({ keys, texts, onText }: { keys: Array<string | null>; texts: StudioTexts; onText: (key: string, locale: 'es' | 'en', text: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} mb="sm">
      {keys.filter((k): k is string => Boolean(k)).map((key) => (
        <Group key={key} grow align="flex-start">
          <TextInput size="xs" label={t('studio.textEs', { key })} value={texts[key]?.es ?? ''} onChange={(e) => onText(key, 'es', e.currentTarget.value)} />
          <TextInput size="xs" label={t('studio.textEn', { key })} value={texts[key]?.en ?? ''} onChange={(e) => onText(key, 'en', e.currentTarget.value)} />
        </Group>
      ))}
    </Stack>
  );
}

