import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** docs/product-rules.md#screens /login/google/callback: a placeholder (the popup flow needs no redirect handling). */
export default function GoogleCallbackPage() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Stack align="center">
        <Loader />
        <Text>{t('login.googleCallback')}</Text>
      </Stack>
    </Center>
  );
}
