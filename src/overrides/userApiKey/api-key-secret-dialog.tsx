import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Persistent (no outside click, no Escape) dialog showing the new key's secret once, with a copy button. */
export function ApiKeySecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={t('apiKey.secretTitle')} closeOnClickOutside={false} closeOnEscape={false} withCloseButton={false} size="lg" zIndex={2100}>
      {secret && (
        <Stack data-testid="api-key-secret-dialog">
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />}>
            {t('apiKey.created')}
          </Alert>
          <Group wrap="nowrap" gap="xs">
            <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="api-key-secret">
              {secret}
            </Code>
            <CopyButton value={secret} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('apiKey.copied') : t('apiKey.copy')} withArrow zIndex={2200}>
                  <ActionIcon color={copied ? 'teal' : 'gray'} variant="light" size="lg" onClick={copy} aria-label={t('apiKey.copy')} data-testid="api-key-copy">
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
            <Text size="sm">{t('apiKey.showOnce')}</Text>
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="api-key-close">
              {t('apiKey.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
