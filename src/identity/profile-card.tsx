import { useRef, useState } from 'react';
import { Avatar, Box, Button, Card, Center, FileButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useHover } from '@mantine/hooks';
import { IconLock, IconPencil, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, session, useSessionState } from '../session/session.ts';
import { avatarUrl } from '../session/avatar-url.ts';
import { ErrorAlert } from './error-alert.tsx';
import { toFormFailure } from './server-errors.ts';

/** docs/product-rules.md#screens, #validation: avatars are png, jpeg or jpg. */
export const AVATAR_ACCEPT = 'image/png,image/jpeg,.png,.jpeg,.jpg';
const AVATAR_TYPES = new Set(['image/png', 'image/jpeg']);

export function isAcceptedAvatar(file: { name: string; type: string }): boolean {
  return AVATAR_TYPES.has(file.type) || /\.(png|jpe?g)$/i.test(file.name);
}

/** Username, e-mail, tenant, role and avatar (90 px, pencil on hover, file picker on click). */
export function ProfileCard() {
  const { t } = useTranslation();
  const { user } = useSessionState();
  const { hovered, ref } = useHover();
  const resetRef = useRef<() => void>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function upload(file: File | null) {
    resetRef.current?.();
    if (!file) return;
    if (!isAcceptedAvatar(file)) {
      setError('profile.avatarType');
      return;
    }
    setUploading(true);
    try {
      await api.uploadAvatar(file);
      await session.reloadUser();
      // A good upload ends an earlier failure's message (it stayed on, issue 27).
      setError(null);
    } catch (failure) {
      setError(toFormFailure(failure).message);
    } finally {
      setUploading(false);
    }
  }

  const url = avatarUrl(user);
  return (
    <Card withBorder shadow="md" radius="md" padding={0} w="100%" maw={420} data-testid="profile-card">
      <Box h={150} style={{ background: 'linear-gradient(135deg, var(--mantine-color-blue-8), var(--mantine-color-cyan-6))' }} />
      <Center mt={-45}>
        <FileButton onChange={(file) => void upload(file)} accept={AVATAR_ACCEPT} resetRef={resetRef}>
          {(props) => (
            <Box
              ref={ref}
              {...props}
              component="button"
              type="button"
              aria-label={t('profile.changeAvatar')}
              data-testid="avatar-button"
              style={{ position: 'relative', border: 0, padding: 0, background: 'none', cursor: 'pointer', borderRadius: '50%' }}
            >
              <Avatar src={url} size={90} radius={90} style={{ border: '3px solid var(--mantine-color-body)' }} alt={user?.username ?? ''}>
                <IconUserCircle size={80} stroke={1.2} />
              </Avatar>
              {(hovered || uploading) && (
                <Center pos="absolute" inset={0} style={{ borderRadius: '50%', background: 'rgba(0,0,0,0.45)' }}>
                  {uploading ? <Loader size="sm" color="white" /> : <IconPencil size={26} color="white" data-testid="avatar-pencil" />}
                </Center>
              )}
            </Box>
          )}
        </FileButton>
      </Center>
      <Stack p="lg" gap="xs" align="center">
        <Title order={2} size="h3" data-testid="profile-username">
          {user?.username ?? ''}
        </Title>
        {user?.name && <Text c="dimmed">{user.name}</Text>}
        <ErrorAlert message={error} />
        <Group gap={6} wrap="nowrap">
          <Text fw={500}>{t('profile.email')}:</Text>
          <Text>{user?.email || '—'}</Text>
        </Group>
        <Group gap={6} wrap="nowrap">
          <Text fw={500}>{t('profile.tenant')}:</Text>
          <Text data-testid="profile-tenant">{user?.tenant?.name || t('profile.noTenant')}</Text>
        </Group>
        <Group gap={6} wrap="nowrap">
          <Text fw={500}>{t('profile.role')}:</Text>
          <Text data-testid="profile-role">{user?.role?.name || '—'}</Text>
        </Group>
        <Button component={Link} to="/password/change" variant="light" leftSection={<IconLock size={16} />} mt="sm">
          {t('profile.changePassword')}
        </Button>
      </Stack>
    </Card>
  );
}
