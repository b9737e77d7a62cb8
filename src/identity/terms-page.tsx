import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** docs/product-rules.md#screens /condiciones-servicio: heading only. */
export default function TermsPage() {
  const { t } = useTranslation();
  return <Title order={1}>{t('legal.terms')}</Title>;
}
