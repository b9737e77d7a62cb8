import { Anchor, Breadcrumbs as MantineBreadcrumbs, Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useMenuGroups } from '../live-model.ts';
import { featureTiles } from '../../home/feature-tiles.ts';
import { breadcrumbTrail } from './breadcrumb-trail.ts';

/** Where the current page sits (issue 27 item 5): Inicio › group › page, each step back a link. */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menuGroups = useMenuGroups();
  // A group named like its page (the group Bots, the page Bots) says it once.
  const trail = breadcrumbTrail(pathname, menuGroups, featureTiles).filter((crumb, index, all) => index === all.length - 1 || t(crumb.label) !== t(all[index + 1].label));
  return (
    <Box component="nav" aria-label={t('nav.breadcrumbs')} mb="sm" data-testid="breadcrumbs">
      <MantineBreadcrumbs separatorMargin={6}>
        {trail.map((crumb, index) => {
          const last = index === trail.length - 1;
          if (crumb.path && !last) {
            return (
              <Anchor key={crumb.label} component={Link} to={crumb.path} size="sm">
                {t(crumb.label)}
              </Anchor>
            );
          }
          return (
            <Text key={crumb.label} size="sm" c={last ? undefined : 'dimmed'} aria-current={last ? 'page' : undefined}>
              {t(crumb.label)}
            </Text>
          );
        })}
      </MantineBreadcrumbs>
    </Box>
  );
}
