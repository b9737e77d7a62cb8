import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, ScrollArea, Stack, TagsInput, Text, TextInput, Textarea, UnstyledButton } from '@mantine/core';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RagChunk } from '../../knowledge/rag-api.ts';

export interface ChunkEditorProps {
  chunks: RagChunk[];
  onChange: (chunks: RagChunk[]) => void;
  readonly: boolean;
  /** Errors by path relative to the list: "3.content" (server's chunks.3.content). */
  errors: Record<string, string[]>;
}

/**
 * docs/product-rules.md#states: chunks can be added, deleted or filtered by content; selecting one edits its category,
 * tags and content. A list on the left (with the chunk's number, preview and error mark), the
 * selected chunk's editor on the right.
 */
export function ChunkEditor({ chunks, onChange, readonly, errors }: ChunkEditorProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<number | null>(chunks.length > 0 ? 0 : null);
  const needle = filter.trim().toLocaleLowerCase();
  const visible = useMemo(
    () => chunks.map((chunk, index) => ({ chunk, index })).filter(({ chunk }) => needle === '' || (chunk.content ?? '').toLocaleLowerCase().includes(needle)),
    [chunks, needle],
  );
  const current = selected !== null && selected < chunks.length ? chunks[selected] : null;
  const hasError = (index: number) => Object.keys(errors).some((path) => path.startsWith(`${index}.`));
  const errorOf = (index: number, field: string) => errors[`${index}.${field}`]?.map((reason) => t(reason)).join(' ');

  const update = (index: number, patch: Partial<RagChunk>) => {
    onChange(chunks.map((chunk, i) => (i === index ? { ...chunk, ...patch } : chunk)));
  };
  const add = () => {
    onChange([...chunks, { content: '', hash: null, category: '', tags: [] }]);
    setSelected(chunks.length);
    setFilter('');
  };
  const remove = (index: number) => {
    onChange(chunks.filter((_, i) => i !== index));
    setSelected((s) => (s === null ? null : s === index ? (chunks.length > 1 ? Math.max(0, index - 1) : null) : s > index ? s - 1 : s));
  };

  return (
    <Group align="stretch" wrap="nowrap" gap="md" data-testid="chunk-editor">
      <Stack w={340} miw={260} gap="xs">
        <Group gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            size="xs"
            leftSection={<IconSearch size={14} />}
            placeholder={t('knowledgesource.chunks.filter')}
            aria-label={t('knowledgesource.chunks.filter')}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
          {!readonly && (
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={add}>
              {t('knowledgesource.chunks.add')}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('knowledgesource.chunks.count', { shown: visible.length, count: chunks.length })}
        </Text>
        <ScrollArea.Autosize mah="calc(100vh - 420px)" mih={200} type="auto" offsetScrollbars>
          <Stack gap={4}>
            {visible.length === 0 && (
              <Text size="sm" c="dimmed" py="md" ta="center">
                {t(chunks.length === 0 ? 'knowledgesource.chunks.empty' : 'knowledgesource.chunks.noMatch')}
              </Text>
            )}
            {visible.map(({ chunk, index }) => (
              <Paper
                key={index}
                withBorder
                p={6}
                bg={index === selected ? 'var(--mantine-primary-color-light)' : undefined}
                style={{ borderColor: hasError(index) ? 'var(--mantine-color-red-6)' : undefined }}
              >
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <UnstyledButton style={{ flex: 1, minWidth: 0 }} onClick={() => setSelected(index)} aria-current={index === selected} data-testid="chunk-item">
                    <Group gap={6} wrap="nowrap">
                      <Badge size="xs" variant="default" miw={28}>
                        {index + 1}
                      </Badge>
                      {chunk.category ? (
                        <Badge size="xs" variant="light" maw={120}>
                          {chunk.category}
                        </Badge>
                      ) : null}
                    </Group>
                    <Text size="xs" lineClamp={2} c={chunk.content?.trim() ? undefined : 'dimmed'}>
                      {chunk.content?.trim() || t('knowledgesource.chunks.blank')}
                    </Text>
                  </UnstyledButton>
                  {!readonly && (
                    <ActionIcon size="sm" variant="subtle" color="red" aria-label={t('knowledgesource.chunks.delete', { index: index + 1 })} onClick={() => remove(index)}>
                      <IconTrash size={14} />
                    </ActionIcon>
                  )}
                </Group>
              </Paper>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Stack>
      <Stack style={{ flex: 1, minWidth: 0 }} gap="sm">
        {current && selected !== null ? (
          <>
            <Text fw={500}>{t('knowledgesource.chunks.selected', { index: selected + 1 })}</Text>
            <Group grow align="flex-start">
              <TextInput
                label={t('field.knowledgesource.chunksItem.category')}
                value={current.category ?? ''}
                readOnly={readonly}
                error={errorOf(selected, 'category')}
                onChange={(event) => update(selected, { category: event.currentTarget.value })}
              />
              <TagsInput
                label={t('field.knowledgesource.chunksItem.tags')}
                value={current.tags ?? []}
                readOnly={readonly}
                error={errorOf(selected, 'tags')}
                onChange={(tags) => update(selected, { tags })}
                comboboxProps={{ zIndex: 2000 }}
              />
            </Group>
            <Textarea
              label={t('field.knowledgesource.chunksItem.content')}
              withAsterisk
              autosize
              minRows={8}
              maxRows={20}
              value={current.content ?? ''}
              readOnly={readonly}
              error={errorOf(selected, 'content')}
              // The hash names the old content; the server keys the edited one afresh.
              onChange={(event) => update(selected, { content: event.currentTarget.value, hash: null })}
              data-testid="chunk-content"
            />
            <Text size="xs" c="dimmed">
              {t('knowledgesource.chunks.length', { count: (current.content ?? '').length })}
              {current.hash ? ` · ${t('field.knowledgesource.chunksItem.hash')}: ${current.hash.slice(0, 16)}…` : ''}
            </Text>
          </>
        ) : (
          <Text c="dimmed" py="xl" ta="center">
            {t(chunks.length === 0 ? 'knowledgesource.chunks.empty' : 'knowledgesource.chunks.select')}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
