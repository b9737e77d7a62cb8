import { useRef, useState, type DragEvent } from 'react';
import { ActionIcon, Alert, Anchor, Group, Input, Loader, Paper, Text } from '@mantine/core';
import { IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRuntime } from '../context/runtime-context.tsx';
import { isApiError } from '../transport/api-error.ts';
import type { UploadedFile } from '../transport/rest-transport.ts';

export interface FileDropProps {
  id?: string;
  label?: string;
  description?: string;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  accept?: string;
  /** Upload directory under /api/file/{dir}. */
  dir?: string;
  /** What is stored now: a url (file) or an uploaded-file record (fullFile). */
  current: { url: string; name: string } | null;
  onUploaded: (file: UploadedFile) => void;
  onClear: () => void;
}

/**
 * Click or drag-and-drop upload (docs/product-rules.md#screens). Hand-written over a hidden file input: the only
 * dropzone for Mantine (@mantine/dropzone) is not installed, and the behaviour needed is small.
 */
export function FileDrop(props: FileDropProps) {
  const { t } = useTranslation();
  const { uploader } = useRuntime();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  async function upload(file: File | undefined) {
    if (!file || props.disabled) return;
    setFailure(null);
    setUploading(true);
    try {
      props.onUploaded(await uploader.uploadFile({ file, dir: props.dir }));
    } catch (error) {
      setFailure(isApiError(error) ? error.message : 'error.unknown');
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void upload(event.dataTransfer.files[0]);
  }

  return (
    <Input.Wrapper id={props.id} label={props.label} description={props.description} error={props.error} required={props.required}>
      <Paper
        withBorder
        p="md"
        mt={4}
        role="button"
        tabIndex={props.disabled ? -1 : 0}
        aria-disabled={props.disabled}
        style={{ cursor: props.disabled ? 'default' : 'pointer', borderStyle: 'dashed', opacity: dragging ? 0.7 : 1 }}
        onClick={() => !props.disabled && input.current?.click()}
        onKeyDown={(event) => {
          if (!props.disabled && (event.key === 'Enter' || event.key === ' ')) input.current?.click();
        }}
        onDragOver={(event) => {
          event.preventDefault();
          if (!props.disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Group gap="sm" wrap="nowrap">
          {uploading ? <Loader size="sm" /> : <IconUpload size={20} />}
          <Text size="sm" c="dimmed" style={{ flex: 1 }}>
            {uploading ? t('form.upload.uploading') : t('form.upload.drop')}
          </Text>
        </Group>
        <input
          ref={input}
          id={props.id ? `${props.id}-input` : undefined}
          data-testid={props.id ? `${props.id}-file` : undefined}
          type="file"
          hidden
          accept={props.accept}
          disabled={props.disabled}
          onChange={(event) => void upload(event.currentTarget.files?.[0])}
        />
      </Paper>
      {props.current && (
        <Group gap="xs" mt={4} wrap="nowrap">
          <Anchor href={props.current.url} target="_blank" rel="noreferrer" size="sm" truncate>
            {props.current.name}
          </Anchor>
          {!props.disabled && (
            <ActionIcon variant="subtle" size="sm" aria-label={t('form.upload.remove')} onClick={props.onClear}>
              <IconX size={14} />
            </ActionIcon>
          )}
        </Group>
      )}
      {failure && (
        <Alert color="red" mt="xs" withCloseButton onClose={() => setFailure(null)} closeButtonLabel={t('crud.close')}>
          {t(failure)}
        </Alert>
      )}
    </Input.Wrapper>
  );
}
