import { useState } from 'react';
import { ActionIcon, Badge, Card, Code, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageFallback } from '../app/page-fallback.tsx';
import { api, sessionStore, useSessionCan } from '../session/session.ts';
import { mayDo } from '../../contract/permissions/entity-access.ts';
import { entities } from '../generated/entities.ts';
import type { Setting } from '../session/session-types.ts';
import { useTranslateMessage } from '../identity/use-translate-message.ts';
import { NOTIFICATION_MS } from '../../runtime/crud/crud-page.tsx';
import { SettingDialog } from './setting-dialog.tsx';
import { normaliseGroups, replaceSetting, type SettingGroup } from './setting-value.ts';

const QUERY_KEY = ['settings', 'grouped'];

/** docs/product-rules.md#screens /settings: settings grouped by category, an edit dialog per setting. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Setting | null>(null);
  const can = useSessionCan();
  const canEdit = mayDo(can, entities.setting.permissions, 'update');
  const groups = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => {
      const result = normaliseGroups(await api.settingsGrouped());
      sessionStore.setSettings(result.flatMap((group) => group.settings));
      return result;
    },
  });

  async function save(setting: Setting, value: unknown) {
    try {
      const updated = await api.updateSetting(setting._id ?? String(setting.id), value);
      const merged = { ...setting, ...(updated && typeof updated === 'object' ? updated : { value }) };
      // docs/product-rules.md#states: save sends the value, updates the local setting, closes the dialog.
      queryClient.setQueryData<SettingGroup[]>(QUERY_KEY, (current) => (current ? replaceSetting(current, merged) : current));
      sessionStore.setSettings(sessionStore.getState().settings.map((item) => (item._id === merged._id ? merged : item)));
      queryClient.removeQueries({ queryKey: ['public-options'] });
      setEditing(null);
      notifications.show({ message: t('settings.saved'), color: 'green', autoClose: NOTIFICATION_MS });
    } catch (error) {
      // docs/product-rules.md#errors only logs setting-update failures; the dialog shows them too (nothing fails silently).
      console.warn(error);
      throw error;
    }
  }

  const display = (setting: Setting) => {
    const { type, value } = setting;
    if (type === 'password') return <Badge variant="outline" color={value ? 'green' : 'gray'}>{value ? t('settings.passwordSet') : t('settings.passwordUnset')}</Badge>;
    if (type === 'boolean') return <Badge color={value === true ? 'green' : 'red'}>{t(value === true ? 'common.yes' : 'common.no')}</Badge>;
    if (Array.isArray(value)) return value.length ? <Group gap={4}>{value.map((item) => <Badge key={String(item)} variant="outline">{String(item)}</Badge>)}</Group> : <Text c="dimmed">{t('settings.none')}</Text>;
    if (value === '' || value === null || value === undefined) return <Text c="dimmed">{t('settings.none')}</Text>;
    const text = `${setting.prefix ?? ''}${String(value)}${setting.suffix ? ` ${setting.suffix}` : ''}`;
    return <Text lineClamp={2} style={{ wordBreak: 'break-all' }}>{text}</Text>;
  };

  return (
    <Stack gap="lg">
      <Title order={2}>{t('settings.title')}</Title>
      {groups.isLoading && <PageFallback />}
      {groups.data?.length === 0 && <Text>{t('settings.empty')}</Text>}
      {groups.data?.map((group) => (
        <Card key={group.category} withBorder radius="md" padding="md" data-testid={`settings-group-${group.category}`}>
          <Title order={3} size="h4" mb="sm">
            {translate(`setting.category.${group.category}`) === `setting.category.${group.category}` ? group.category : translate(`setting.category.${group.category}`)}
          </Title>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Tbody>
              {group.settings.map((setting) => (
                <Table.Tr key={setting._id ?? setting.key} data-testid={`setting-row-${setting.key}`}>
                  <Table.Td w="35%">
                    <Text fw={500}>{translate(setting.label || setting.key)}</Text>
                    <Code>{setting.key}</Code>
                  </Table.Td>
                  <Table.Td>{display(setting)}</Table.Td>
                  <Table.Td w={60} ta="right">
                    {canEdit && <Tooltip label={t('settings.edit')}>
                      <ActionIcon variant="subtle" aria-label={`${t('settings.edit')} ${setting.key}`} onClick={() => setEditing(setting)} data-testid={`setting-edit-${setting.key}`}>
                        <IconPencil size={18} />
                      </ActionIcon>
                    </Tooltip>}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      ))}
      <SettingDialog setting={editing} onClose={() => setEditing(null)} onSave={save} />
    </Stack>
  );
}
