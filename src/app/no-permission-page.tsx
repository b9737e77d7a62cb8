import { Alert, Button, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** A signed-in user opened a screen their role does not allow: say so, and offer the way home. */
export function NoPermissionPage() {
  const { t } = useTranslation();
  return (
    <Stack align="flex-start" data-testid="no-permission">
      <Alert color="yellow" icon={<IconLock size={18} />} title={t('app.noPermission.title')} role="alert">
        {t('app.noPermission.text')}
      </Alert>
      <Button component={Link} to="/" variant="light">
        {t('app.noPermission.home')}
      </Button>
    </Stack>
  );
}
