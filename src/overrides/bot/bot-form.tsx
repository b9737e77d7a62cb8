import { useState } from 'react';
import { Anchor, Box, Button, Code, CopyButton, Divider, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { EntityForm, type EntityFormProps } from '../../../runtime/form/entity-form.tsx';
import { chatUrl } from '../../chat/chat-qr-page.tsx';
import { mayDo } from '../../../contract/permissions/entity-access.ts';
import { useCan } from '../../../runtime/permissions/permissions-context.tsx';
import { BotPreviewPanel, previewDraft } from '../../chat/preview/bot-preview-panel.tsx';

/** The one line a site adds to show the chat widget (server/chat/widget/widget-script.ts). */
export function widgetSnippet(botId: string, origin: string = window.location.origin): string {
  return `<script src="${origin}/widget.js" data-bot="${botId}" async></script>`;
}

/**
 * The generic bot form, and under it, once the bot exists, how to reach its chat: the link, the QR
 * code and the widget snippet to copy. Beside it, for those who may edit the bot, the preview chat
 * (issue 28 item 4), which tries the form's current (unsaved) prompts.
 */
export function BotForm(props: EntityFormProps) {
  const id = typeof props.initialData._id === 'string' ? props.initialData._id : null;
  const can = useCan();
  const [data, setData] = useState(props.initialData);
  const onChange = props.onChange;
  const form = (
    <Stack gap="md">
      <EntityForm
        {...props}
        onChange={(next) => {
          setData(next);
          onChange?.(next);
        }}
      />
      <EmbedPanel botId={id} />
    </Stack>
  );
  // The server requires bot:update (or :manage) for the preview: others see the form alone.
  if (!id || !mayDo(can, props.model.permissions, 'update')) return form;
  return (
    // Container breakpoints: the dialog's width decides, not the screen's (side by side from 850 px).
    <Grid gap="md" type="container" breakpoints={{ xs: '500px', sm: '700px', md: '850px', lg: '1000px', xl: '1200px' }}>
      <Grid.Col span={{ base: 12, md: 7 }}>{form}</Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <BotPreviewPanel botId={id} draft={previewDraft(data)} />
      </Grid.Col>
    </Grid>
  );
}

function EmbedPanel({ botId }: { botId: string | null }) {
  const { t } = useTranslation();
  const [showQr, setShowQr] = useState(false);
  if (!botId) {
    return (
      <Text size="sm" c="dimmed" data-testid="bot-embed-save-first">
        {t('chat.embed.saveFirst')}
      </Text>
    );
  }
  const link = chatUrl(botId);
  const snippet = widgetSnippet(botId);
  return (
    <Stack gap="xs" data-testid="bot-embed">
      <Divider />
      <Title order={3} size="h5">{t('chat.embed.title')}</Title>
      <Group gap="xs" wrap="nowrap" align="center">
        <Text size="sm" fw={500}>
          {t('chat.embed.link')}:
        </Text>
        <Anchor href={link} target="_blank" rel="noopener" size="sm" style={{ wordBreak: 'break-all' }} data-testid="bot-embed-link">
          {link}
        </Anchor>
        <Button variant="subtle" size="compact-xs" onClick={() => setShowQr((s) => !s)}>
          QR
        </Button>
      </Group>
      {showQr && (
        <Box bg="#ffffff" p={12} w="fit-content" style={{ borderRadius: 8, lineHeight: 0 }}>
          <QRCodeSVG value={link} size={128} level="H" fgColor="#000000" bgColor="#ffffff" marginSize={0} title={link} />
        </Box>
      )}
      <Text size="xs" c="dimmed">
        {t('chat.embed.hint')}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="bot-embed-snippet">
          {snippet}
        </Code>
        <CopyButton value={snippet}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant={copied ? 'light' : 'default'} onClick={copy}>
              {copied ? t('chat.embed.copied') : t('chat.embed.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
