import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, PinInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { chatFailureKey, UNEXPECTED_CHAT_ERROR } from './chat-api.ts';
import { chatVisitorApi } from './chat-visitor-api.ts';
import type { ChatConversation } from './chat-types.ts';

/**
 * "Talked to us before?": sends a code to the e-mail typed at start and, with it, joins the
 * visitor's earlier contact (server/chat/contact-verification.ts). Nothing about that contact is
 * shown before the code is right.
 */
export function VerifyEmailPanel({ conversationId, onVerified }: { conversationId: string; onVerified: (conversation: ChatConversation) => void }) {
  const { t, i18n } = useTranslation();
  const [step, setStep] = useState<'ask' | 'code'>('ask');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ key: string; count?: number } | null>(null);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      const key = chatFailureKey(error);
      const body = (error as { body?: { i18nParams?: { count?: number } } }).body;
      setFailure({ key: i18n.exists(key) ? key : UNEXPECTED_CHAT_ERROR, count: body?.i18nParams?.count });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="xs" radius="md" data-testid="chat-verify">
      <Stack gap={6}>
        {step === 'ask' ? (
          <Text size="xs">
            {t('chat.verify.prompt')}{' '}
            <Anchor component="button" type="button" size="xs" disabled={busy} onClick={() => void run(async () => {
              await chatVisitorApi.requestCode(conversationId);
              setStep('code');
            })}>
              {t('chat.verify.send')}
            </Anchor>
          </Text>
        ) : (
          <>
            <Text size="xs">{t('chat.verify.sent')}</Text>
            <Group gap="xs" wrap="nowrap">
              <PinInput length={6} type="number" size="xs" value={code} onChange={setCode} aria-label={t('chat.verify.code')} oneTimeCode />
              <Button size="compact-sm" loading={busy} disabled={code.length !== 6} onClick={() => void run(async () => onVerified(await chatVisitorApi.verify(conversationId, code)))}>
                {t('chat.verify.confirm')}
              </Button>
            </Group>
          </>
        )}
        {failure && (
          <Alert color="red" p={6} data-testid="chat-verify-error">
            <Text size="xs">{t(failure.key, { count: failure.count })}</Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
