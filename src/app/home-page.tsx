import { Anchor, List, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { crudRoutes } from './crud-routes.ts';

/** A plain list of the CRUD pages until the console issue brings the gallery menu. */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <>
      <Title order={2} mb="md">{t('app.crudPages')}</Title>
      <List>
        {crudRoutes.map((route) => (
          <List.Item key={route.path}>
            <Anchor component={Link} to={route.path}>
              {t(route.model.labelPlural)}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </>
  );
}
