import { useRef, useState, type DragEvent } from 'react';
import { Group, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ACCEPT_ATTRIBUTE } from './content-item.ts';

/**
 * Several files at once, by click or drag and drop. Hand-written like runtime/inputs/file-drop.tsx:
 * @mantine/dropzone 9 declares Node >= 22 and this project supports Node 20.
 */
export function FilesDrop({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled && event.dataTransfer.files.length > 0) onFiles(Array.from(event.dataTransfer.files));
  };
  return (
    <Paper
      withBorder
      p="xl"
      role="button"
      tabIndex={disabled ? -1 : 0}
      aria-disabled={disabled}
      aria-label={t('knowledge.add.files.drop')}
      data-testid="files-drop"
      data-dragging={dragging || undefined}
      style={{
        cursor: disabled ? 'default' : 'pointer',
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: dragging ? 'var(--mantine-primary-color-filled)' : undefined,
        background: dragging ? 'var(--mantine-primary-color-light)' : undefined,
      }}
      onClick={() => !disabled && input.current?.click()}
      onKeyDown={(event) => {
        if (!disabled && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          input.current?.click();
        }
      }}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <Group justify="center" gap="md" wrap="nowrap">
        <IconUpload size={32} opacity={0.7} aria-hidden />
        <Stack gap={2}>
          <Text fw={500}>{t('knowledge.add.files.drop')}</Text>
          <Text size="sm" c="dimmed">
            {t('knowledge.add.files.accepted')}
          </Text>
        </Stack>
      </Group>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ACCEPT_ATTRIBUTE}
        data-testid="files-input"
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          event.currentTarget.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </Paper>
  );
}
