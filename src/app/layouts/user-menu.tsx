import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { IconKey, IconListCheck, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { session, useSessionCan, useSessionState } from '../../session/session.ts';
import { ownApiKeysAllowed } from './own-api-keys.ts';
import { avatarUrl } from '../../session/avatar-url.ts';

/** The signed-in user's avatar and menu: profile, jobs, API keys, sign out. */
export default function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSessionState();
  const can = useSessionCan();
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <UnstyledButton aria-label={t('app.userMenu')} data-testid="user-menu">
          <Avatar src={avatarUrl(user)} radius="xl" size={34} alt={user?.username ?? ''}>
            <IconUser size={18} />
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {user && <Menu.Label>{user.username}</Menu.Label>}
        <Menu.Item leftSection={<IconUser size={16} />} onClick={() => navigate('/profile')}>
          {t('app.profile')}
        </Menu.Item>
        <Menu.Item leftSection={<IconListCheck size={16} />} onClick={() => navigate('/jobs')} data-testid="user-menu-jobs">
          {t('jobs.open')}
        </Menu.Item>
        {ownApiKeysAllowed(can) && (
          // Everyone's own keys, whatever the gallery's Admin group shows (issue 27 item 3).
          <Menu.Item leftSection={<IconKey size={16} />} onClick={() => navigate('/crud/user-api-key')} data-testid="user-menu-api-keys">
            {t('entity.userApiKey.plural')}
          </Menu.Item>
        )}
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => {
            session.signOut();
            navigate('/login');
          }}
        >
          {t('app.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
