import { useState } from 'react';
import { ActionIcon, Badge, Button, Collapse, Group, Loader, Paper, ScrollArea, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronUp, IconCircleCheck, IconFileText, IconLink, IconTextCaption, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContentItem } from './content-item.ts';

/** Chunks shown in one item's preview; the rest are counted. */
const PREVIEW_CHUNKS = 30;

const KIND_ICONS = { text: IconTextCaption, file: IconFileText, link: IconLink } as const;

/** One item of the flow: what it is, where it stands (with the reason of a failure) and its chunks. */
export function ContentItemRow({ item, onRemove, trained }: { item: ContentItem; onRemove?: () => void; trained: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const Icon = KIND_ICONS[item.kind];
  const chunks = item.chunks ?? [];
  const failed = item.status === 'failed' || (item.status === 'saved' && !!item.error);
  return (
    <Paper withBorder p="xs" data-testid="content-item" data-status={item.status} style={failed ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size="md" color={failed ? 'red' : 'blue'} aria-hidden>
          <Icon size={16} />
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} truncate title={item.name}>
            {item.name}
          </Text>
          <Group gap="xs">
            <ItemStatus item={item} trained={trained} />
            {chunks.length > 0 && (
              <Button
                size="compact-xs"
                variant="subtle"
                rightSection={open ? <IconChevronUp size={12} /> : <IconChevronDown size={12} />}
                onClick={() => setOpen((value) => !value)}
                aria-expanded={open}
              >
                {t(open ? 'knowledge.add.hideChunks' : 'knowledge.add.showChunks')}
              </Button>
            )}
          </Group>
          {item.error && (
            <Text size="xs" c="red" role="alert" data-testid="content-item-error">
              {t(item.error)}
            </Text>
          )}
        </Stack>
        {onRemove && item.status !== 'saving' && item.status !== 'saved' && (
          <ActionIcon variant="subtle" color="gray" aria-label={t('knowledge.add.remove', { name: item.name })} onClick={onRemove}>
            <IconX size={16} />
          </ActionIcon>
        )}
      </Group>
      <Collapse expanded={open}>
        <ScrollArea.Autosize mah={260} mt="xs" type="auto" offsetScrollbars>
          <Stack gap={4} data-testid="chunk-preview">
            {chunks.slice(0, PREVIEW_CHUNKS).map((chunk, index) => (
              <Paper key={index} withBorder p={6} bg="var(--mantine-color-default-hover)">
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <Badge size="xs" variant="default" miw={28}>
                    {index + 1}
                  </Badge>
                  <Text size="xs" lineClamp={4} style={{ whiteSpace: 'pre-wrap' }}>
                    {chunk.content}
                  </Text>
                </Group>
              </Paper>
            ))}
            {chunks.length > PREVIEW_CHUNKS && (
              <Text size="xs" c="dimmed">
                {t('knowledge.add.moreChunks', { count: chunks.length - PREVIEW_CHUNKS })}
              </Text>
            )}
          </Stack>
        </ScrollArea.Autosize>
      </Collapse>
    </Paper>
  );
}

function ItemStatus({ item, trained }: { item: ContentItem; trained: boolean }) {
  const { t } = useTranslation();
  const count = item.chunks?.length ?? 0;
  switch (item.status) {
    case 'waiting':
      return <Badge variant="light" color="gray" tt="none">{t('knowledge.add.status.waiting')}</Badge>;
    case 'reading':
      return <Badge variant="light" color="blue" tt="none" leftSection={<Loader size={10} />}>{t(`knowledge.add.status.reading.${item.kind}`)}</Badge>;
    case 'ready':
      return <Badge variant="light" color="blue" tt="none">{t('knowledge.add.status.ready', { count })}</Badge>;
    case 'saving':
      return <Badge variant="light" color="blue" tt="none" leftSection={<Loader size={10} />}>{t('knowledge.add.status.saving')}</Badge>;
    case 'saved':
      if (item.error) return <Badge variant="light" color="red" tt="none" leftSection={<IconAlertTriangle size={12} />}>{t('knowledge.sourceState.problem')}</Badge>;
      return trained ? (
        <Badge variant="light" color="green" tt="none" leftSection={<IconCircleCheck size={12} />}>{t('knowledge.sourceState.indexed', { count })}</Badge>
      ) : (
        <Badge variant="light" color="gray" tt="none">{t('knowledge.add.status.saved')}</Badge>
      );
    case 'failed':
      return <Badge variant="light" color="red" tt="none" leftSection={<IconAlertTriangle size={12} />}>{t('knowledge.add.status.failed')}</Badge>;
  }
}
