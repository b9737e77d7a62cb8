import { Anchor, Box, Button, Stack, Text, Title } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

/** docs/product-rules.md#constants: size 256, error correction H, a fixed colour (dark on white so every reader scans it). */
export const QR_SIZE = 256;

/** The chat's address: the site origin plus /chat/{botId}. */
export function chatUrl(botId: string, origin: string = window.location.origin): string {
  return `${origin}/chat/${encodeURIComponent(botId)}`;
}

/** /chat/qr/:botId (docs/product-rules.md#screens): the QR code of the chat URL, an open-chat button and the link. */
export default function ChatQrPage() {
  const { t } = useTranslation();
  const { botId = '' } = useParams();
  const url = chatUrl(botId);
  return (
    <Stack align="center" gap="md">
      <Title order={1} size="h3">{t('chat.qr.title')}</Title>
      <Box bg="#ffffff" p={24} style={{ borderRadius: 8, lineHeight: 0 }} data-testid="chat-qr">
        <QRCodeSVG value={url} size={QR_SIZE} level="H" fgColor="#000000" bgColor="#ffffff" marginSize={0} title={url} />
      </Box>
      <Text size="sm" c="dimmed" ta="center">
        {t('chat.qr.scan')}
      </Text>
      <Button component={Link} to={`/chat/${encodeURIComponent(botId)}`} leftSection={<IconMessageChatbot size={18} />}>
        {t('chat.qr.open')}
      </Button>
      <Anchor href={url} size="sm" style={{ wordBreak: 'break-all' }} ta="center" data-testid="chat-qr-link">
        {url}
      </Anchor>
    </Stack>
  );
}
