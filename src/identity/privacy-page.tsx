import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** docs/product-rules.md#screens /politica-privacidad: heading only. */
export default function PrivacyPage() {
  const { t } = useTranslation();
  return <Title order={1}>{t('legal.privacy')}</Title>;
}
