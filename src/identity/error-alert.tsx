import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslateMessage } from './use-translate-message.ts';

/** The red alert above an identity form, translated when the message is a key (docs/product-rules.md#errors). */
export function ErrorAlert({ message }: { message: string | null }) {
  const translate = useTranslateMessage();
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="form-error">
      {translate(message)}
    </Alert>
  );
}
