import { useCallback, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Stack, Tabs, Textarea } from '@mantine/core';
import { IconCopy, IconFileImport, IconScissors, IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EntityForm, type EntityFormHandle, type EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import type { EntityRecord } from '../../../runtime/crud/prepare-record.ts';
import { isApiError } from '../../../runtime/transport/api-error.ts';
import { ragApi, type RagChunk } from '../../knowledge/rag-api.ts';
import { failureMessage } from '../../knowledge/training-outcome.ts';
import { ChunkEditor } from './chunk-editor.tsx';
import { HEADER_FIELDS, headerSchemas } from './text-part-schemas.ts';

type TabName = 'sourceText' | 'editedText' | 'chunks';
type Busy = 'parse' | 'improve' | 'chunk' | null;

const REQUIRED = 'validation.required';

/**
 * Knowledge source form (docs/product-rules.md#states): the generic EntityForm for name, type, file (type file only)
 * and link (type link only), then tabs Source Text, Edited Text and Chunks with the actions Parse
 * from source, Copy, Improve text with AI and Recursive chunk. Type chunk forces the Chunks tab and
 * hides the other two (their values are dropped, as EntityForm drops hidden fields).
 */
export function KnowledgeSourceForm(props: EntityFormProps) {
  const { model, schemas, operation, initialData, fieldErrors = {}, handle } = props;
  const { t } = useTranslation();
  const readonly = operation === 'view' || operation === 'delete';
  const header = useMemo(() => headerSchemas(schemas), [schemas]);
  const headerInitial = useMemo(() => Object.fromEntries(HEADER_FIELDS.filter((name) => name in initialData).map((name) => [name, initialData[name]])), [initialData]);

  const headerRef = useRef<EntityFormHandle>(null);
  const [headerData, setHeaderData] = useState<EntityRecord>(headerInitial);
  const [sourceText, setSourceText] = useState(String(initialData.sourceText ?? ''));
  const [text, setText] = useState(String(initialData.text ?? ''));
  const [chunks, setChunks] = useState<RagChunk[]>(() => (Array.isArray(initialData.chunks) ? (initialData.chunks as RagChunk[]) : []));
  const [tab, setTab] = useState<TabName>('sourceText');
  const [busy, setBusy] = useState<Busy>(null);
  const [improveError, setImproveError] = useState<string | null>(null);
  /** Why "Extract from source" failed: on the link/file field when the server names it, else above the text. */
  const [parseFieldErrors, setParseFieldErrors] = useState<Record<string, string[]>>({});
  const [parseError, setParseError] = useState<string | null>(null);
  const [localErrors, setLocalErrors] = useState<Record<string, string[]>>({});

  const type = (headerData.type as string | undefined) ?? (initialData.type as string | undefined);
  const chunkOnly = type === 'chunk';
  const activeTab: TabName = chunkOnly ? 'chunks' : tab;
  const errors = useMemo(() => ({ ...fieldErrors, ...localErrors }), [fieldErrors, localErrors]);
  const chunkErrors = useMemo(
    () => Object.fromEntries(Object.entries(errors).filter(([path]) => path.startsWith('chunks.')).map(([path, reasons]) => [path.slice('chunks.'.length), reasons])),
    [errors],
  );
  const errorText = (field: string) => errors[field]?.map((reason) => t(reason)).join(' ');

  const data = useCallback((): EntityRecord => {
    const current = headerRef.current?.getData() ?? headerData;
    const out: EntityRecord = { ...current, chunks };
    if ((current.type as string | undefined) !== 'chunk') Object.assign(out, { sourceText, text });
    return out;
  }, [headerData, chunks, sourceText, text]);

  useImperativeHandle(
    handle,
    () => ({
      getData: data,
      validate: () => {
        const headerValid = headerRef.current?.validate() ?? true;
        const found: Record<string, string[]> = {};
        const current = data();
        if (current.type !== 'chunk') {
          if (!String(current.sourceText ?? '').trim()) found.sourceText = [REQUIRED];
          if (!String(current.text ?? '').trim()) found.text = [REQUIRED];
        }
        chunks.forEach((chunk, index) => {
          if (!chunk.content?.trim()) found[`chunks.${index}.content`] = [REQUIRED];
        });
        setLocalErrors(found);
        if (found.sourceText && !chunkOnly) setTab('sourceText');
        else if (found.text && !chunkOnly) setTab('editedText');
        else if (Object.keys(found).length > 0) setTab('chunks');
        return headerValid && Object.keys(found).length === 0;
      },
    }),
    [data, chunks, chunkOnly],
  );

  /** Runs one action; a failure is logged and handed to `onError`, which shows it. */
  const act = async (name: Busy, work: () => Promise<void>, onError?: (error: unknown) => void) => {
    setBusy(name);
    try {
      await work();
    } catch (error) {
      console.error(error);
      onError?.(error);
    } finally {
      setBusy(null);
    }
  };

  const file = headerData.file as { filepath?: string } | null | undefined;
  const link = typeof headerData.link === 'string' ? headerData.link.trim() : '';
  const canParse = (type === 'file' && !!file?.filepath) || (type === 'link' && link !== '');
  const parse = () => {
    setParseFieldErrors({});
    setParseError(null);
    const field = type === 'file' ? 'file' : 'link';
    return act(
      'parse',
      async () => {
        const { content } = type === 'file' ? await ragApi.parseFile(String(file?.filepath)) : await ragApi.parseUrl(link);
        setSourceText(content);
        setTab('sourceText');
      },
      // A link refused by the address policy, a page that 404s, an unreadable file: the server's
      // reason goes on the field (its url / filepath is this form's link / file).
      (error) => {
        const reasons = isApiError(error) ? Object.values(error.inputErrors).flat() : [];
        if (reasons.length > 0) setParseFieldErrors({ [field]: reasons });
        else setParseError(failureMessage(error, t));
      },
    );
  };
  const headerErrors = useMemo(() => ({ ...fieldErrors, ...parseFieldErrors }), [fieldErrors, parseFieldErrors]);
  const changeHeader = useCallback((next: EntityRecord) => {
    setHeaderData((previous) => {
      // Editing the link or the file clears what the last extraction said about it.
      if (previous.link !== next.link || previous.file !== next.file || previous.type !== next.type) setParseFieldErrors({});
      return next;
    });
  }, []);
  const copy = () => {
    setText(sourceText);
    setTab('editedText');
  };
  const improve = () => {
    setImproveError(null);
    return act(
      'improve',
      async () => setText((await ragApi.improve(text)).content),
      // The no-model 409, a failing model, a lost connection: each says why nothing happened.
      (error) => setImproveError(failureMessage(error, t)),
    );
  };
  const chunk = () => {
    setImproveError(null);
    return act(
      'chunk',
      async () => {
        const result = await ragApi.chunk(text);
        setChunks(result.chunks);
        setLocalErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith('chunks.'))));
        setTab('chunks');
      },
      (error) => setImproveError(failureMessage(error, t)),
    );
  };

  return (
    <Stack gap="md">
      <EntityForm
        model={model}
        schemas={header}
        operation={operation}
        initialData={headerInitial}
        fieldErrors={headerErrors}
        handle={headerRef}
        onChange={changeHeader}
        fieldWidgets={props.fieldWidgets}
        {...(props.id ? { id: props.id } : {})}
      />
      <Tabs value={activeTab} onChange={(value) => value && setTab(value as TabName)} keepMounted={false}>
        <Tabs.List>
          {!chunkOnly && <Tabs.Tab value="sourceText" c={errors.sourceText ? 'red' : undefined}>{t('tab.knowledgesource.sourceText')}</Tabs.Tab>}
          {!chunkOnly && <Tabs.Tab value="editedText" c={errors.text ? 'red' : undefined}>{t('tab.knowledgesource.editedText')}</Tabs.Tab>}
          <Tabs.Tab value="chunks" c={Object.keys(chunkErrors).length > 0 ? 'red' : undefined}>
            {t('tab.knowledgesource.chunks')} ({chunks.length})
          </Tabs.Tab>
        </Tabs.List>

        {!chunkOnly && (
          <Tabs.Panel value="sourceText" pt="sm">
            <Stack gap="xs">
              {!readonly && (
                <Group gap="xs">
                  {(type === 'file' || type === 'link') && (
                    <Button size="xs" variant="light" leftSection={<IconFileImport size={14} />} onClick={() => void parse()} loading={busy === 'parse'} disabled={!canParse || busy !== null}>
                      {t('knowledgesource.action.parse')}
                    </Button>
                  )}
                  <Button size="xs" variant="light" leftSection={<IconCopy size={14} />} onClick={copy} disabled={busy !== null || sourceText === ''}>
                    {t('knowledgesource.action.copy')}
                  </Button>
                </Group>
              )}
              {parseError && (
                <Alert color="red" withCloseButton onClose={() => setParseError(null)} data-testid="parse-error">
                  {parseError}
                </Alert>
              )}
              <Textarea
                label={t('field.knowledgesource.sourceText')}
                description={t('hint.knowledgesource.sourceText')}
                withAsterisk
                rows={20}
                value={sourceText}
                readOnly={readonly}
                error={errorText('sourceText')}
                onChange={(event) => setSourceText(event.currentTarget.value)}
                data-testid="source-text"
              />
            </Stack>
          </Tabs.Panel>
        )}

        {!chunkOnly && (
          <Tabs.Panel value="editedText" pt="sm">
            <Stack gap="xs">
              {!readonly && (
                <Group gap="xs">
                  <Button size="xs" variant="light" leftSection={<IconSparkles size={14} />} onClick={() => void improve()} loading={busy === 'improve'} disabled={busy !== null || text.trim() === ''}>
                    {t('knowledgesource.action.improve')}
                  </Button>
                  <Button size="xs" variant="light" leftSection={<IconScissors size={14} />} onClick={() => void chunk()} loading={busy === 'chunk'} disabled={busy !== null || text.trim() === ''}>
                    {t('knowledgesource.action.chunk')}
                  </Button>
                </Group>
              )}
              {improveError && (
                <Alert color="yellow" withCloseButton onClose={() => setImproveError(null)} data-testid="improve-error">
                  {improveError}
                </Alert>
              )}
              <Textarea
                label={t('field.knowledgesource.text')}
                description={t('hint.knowledgesource.text')}
                withAsterisk
                rows={20}
                value={text}
                readOnly={readonly}
                error={errorText('text')}
                onChange={(event) => setText(event.currentTarget.value)}
                data-testid="edited-text"
              />
            </Stack>
          </Tabs.Panel>
        )}

        <Tabs.Panel value="chunks" pt="sm">
          <ChunkEditor chunks={chunks} onChange={setChunks} readonly={readonly} errors={chunkErrors} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
