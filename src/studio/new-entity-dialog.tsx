import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, Switch, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { manifestIcons } from '../generated/icons.ts';
import type { Manifest, StudioList, StudioTexts } from './studio-api.ts';
import { scaffoldManifest } from './scaffold-manifest.ts';

/** Add an entity: its name, labels in both languages, menu group, icon and tenant scope; the rest is scaffolded. */
export function NewEntityDialog({ list, onClose, onCreate }: { list: StudioList; onClose: () => void; onCreate: (manifest: Manifest, texts: StudioTexts) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [labels, setLabels] = useState({ es: '', en: '', esPlural: '', enPlural: '' });
  const [group, setGroup] = useState<string | null>('admin');
  const [icon, setIcon] = useState('file-text');
  const [tenant, setTenant] = useState(false);
  const menu = ((list.metaSchema.properties.menu as { properties?: { group?: { enum?: string[] } } })?.properties?.group?.enum) ?? ['admin'];
  const taken = list.manifests.some((m) => m.name.toLowerCase() === name.toLowerCase());
  const nameError = name === '' ? null : !/^[a-z][A-Za-z0-9]*$/.test(name) ? t('studio.nameRule') : taken ? t('studio.nameTaken') : null;
  const ready = name !== '' && !nameError && labels.es.trim() && labels.en.trim() && group;

  return (
    <Modal opened onClose={onClose} title={t('studio.addEntity')} size="lg">
      <Stack gap="sm">
        <TextInput label={t('studio.entityName')} description={t('studio.nameRule')} value={name} onChange={(e) => setName(e.currentTarget.value.trim())} error={nameError} data-autofocus />
        <Group grow>
          <TextInput label={t('studio.labelEs')} value={labels.es} onChange={(e) => setLabels({ ...labels, es: e.currentTarget.value })} />
          <TextInput label={t('studio.labelEn')} value={labels.en} onChange={(e) => setLabels({ ...labels, en: e.currentTarget.value })} />
        </Group>
        <Group grow>
          <TextInput label={t('studio.pluralEs')} value={labels.esPlural} onChange={(e) => setLabels({ ...labels, esPlural: e.currentTarget.value })} />
          <TextInput label={t('studio.pluralEn')} value={labels.enPlural} onChange={(e) => setLabels({ ...labels, enPlural: e.currentTarget.value })} />
        </Group>
        <Select label={t('studio.menuGroup')} data={menu} value={group} onChange={setGroup} allowDeselect={false} />
        <div role="radiogroup" aria-label={t('studio.icon')}>
          <Text size="sm" fw={500} mb={4}>{t('studio.icon')}: {icon}</Text>
          <Group gap={4}>
            {Object.entries(manifestIcons).map(([iconName, Icon]) => (
              <UnstyledButton key={iconName} role="radio" aria-checked={icon === iconName} aria-label={iconName} title={iconName} onClick={() => setIcon(iconName)}
                p={6} style={{ borderRadius: 6, outline: icon === iconName ? '2px solid var(--mantine-color-blue-6)' : undefined }}>
                <Icon size={20} aria-hidden />
              </UnstyledButton>
            ))}
          </Group>
        </div>
        <Switch label={t('studio.tenantScope')} checked={tenant} onChange={(e) => setTenant(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('studio.cancel')}</Button>
          <Button disabled={!ready} onClick={() => {
            const { manifest, texts } = scaffoldManifest({ name, labels, group: group!, icon, tenant });
            onCreate(manifest, texts);
          }}>{t('studio.create')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
