import { ActionIcon, Tooltip } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { RowActionComponentProps } from '../../../runtime/overrides/override-registry.ts';

/** A bot row's link to its analytics (/analytics?bot=<id>): a real link, so it opens in a new tab too. */
export function BotAnalyticsAction({ row, label, icon: Icon }: RowActionComponentProps) {
  return (
    <Tooltip label={label} openDelay={300} closeDelay={250}>
      <ActionIcon component={Link} to={`/analytics?bot=${encodeURIComponent(String(row._id ?? ''))}`} variant="subtle" aria-label={label} data-testid="bot-analytics">
        <Icon size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
