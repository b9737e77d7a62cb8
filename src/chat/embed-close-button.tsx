import { ActionIcon } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { tellWidget } from './chat-visitor-api.ts';
import { embedContext } from './embed-context.ts';

/** Inside the widget's iframe: folds the chat back into the launcher (on a phone it covers the page). */
export function EmbedCloseButton({ color }: { color?: string } = {}) {
  const { t } = useTranslation();
  if (!embedContext.embedded) return null;
  return (
    <ActionIcon variant="subtle" color={color} c={color} aria-label={t('chat.close')} title={t('chat.close')} onClick={() => tellWidget({ type: 'forja:close' })}>
      <IconX size={18} />
    </ActionIcon>
  );
}
