import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return <Title order={3}>{t('app.notFound')}</Title>;
}
