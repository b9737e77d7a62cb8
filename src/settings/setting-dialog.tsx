import { useState } from 'react';
import { Alert, Button, Group, Modal, MultiSelect, PasswordInput, Select, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Setting } from '../session/session-types.ts';
import { useTranslateMessage } from '../identity/use-translate-message.ts';
import { describeSettingError, fromDraft, toDraft, type DraftValue } from './setting-value.ts';
import { isApiError } from '../../runtime/transport/api-error.ts';

export interface SettingDialogProps {
  setting: Setting | null;
  onClose: () => void;
  /** Sends the value; resolves when saved (the dialog then closes), rejects with the server's refusal. */
  onSave: (setting: Setting, value: unknown) => Promise<void>;
}

/** One dialog for every setting type (docs/product-rules.md#entities Setting types, #validation Settings rules). */
export function SettingDialog({ setting, onClose, onSave }: SettingDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={setting !== null} onClose={onClose} title={t('settings.editTitle')} size="lg">
      {setting && <SettingEditor key={setting._id ?? setting.id} setting={setting} onClose={onClose} onSave={onSave} />}
    </Modal>
  );
}

function SettingEditor({ setting, onClose, onSave }: { setting: Setting; onClose: () => void; onSave: SettingDialogProps['onSave'] }) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const [draft, setDraft] = useState<DraftValue>(() => toDraft(setting));
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  /** Why the server refused the last save (a key or its message), shown above the buttons. */
  const [saveFailure, setSaveFailure] = useState<{ message: string; params: Record<string, unknown> } | null>(null);
  const error = describeSettingError(setting, draft);
  const label = translate(setting.label || `setting.${setting.key}`) || setting.key;
  const options = (setting.options ?? []).map((option) => ({ value: option, label: translate(`setting.option.${option}`) === `setting.option.${option}` ? option : translate(`setting.option.${option}`) }));
  const common = {
    label,
    description: setting.key,
    error: touched && error ? t(error.key, error.params) : undefined,
    'data-testid': 'setting-input',
  };
  const affixes = {
    leftSection: setting.prefix ? <Text size="sm">{setting.prefix}</Text> : undefined,
    rightSection: setting.suffix ? <Text size="sm">{setting.suffix}</Text> : undefined,
  };

  let input;
  switch (setting.type) {
    case 'boolean':
      input = <Switch label={label} description={setting.key} checked={draft === true} onChange={(event) => setDraft(event.currentTarget.checked)} data-testid="setting-input" />;
      break;
    case 'longString':
      input = <Textarea {...common} rows={5} autosize minRows={5} value={String(draft)} onChange={(event) => setDraft(event.currentTarget.value)} />;
      break;
    case 'password':
      input = (
        <PasswordInput
          {...common}
          placeholder={setting.value ? t('settings.passwordSet') : t('settings.passwordUnset')}
          description={t('settings.passwordHint')}
          autoComplete="new-password"
          value={String(draft)}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
      );
      break;
    case 'enum':
      input = <Select {...common} data={options} value={String(draft) || null} onChange={(value) => setDraft(value ?? '')} allowDeselect={false} comboboxProps={{ zIndex: 2100 }} />;
      break;
    case 'enumList':
      input = <MultiSelect {...common} data={options} value={draft as string[]} onChange={setDraft} comboboxProps={{ zIndex: 2100 }} />;
      break;
    case 'stringList':
    case 'numberList':
      input = <TagsInput {...common} description={t('settings.listHint')} value={draft as string[]} onChange={setDraft} {...affixes} />;
      break;
    case 'number':
      input = <TextInput {...common} inputMode="decimal" value={String(draft)} onChange={(event) => setDraft(event.currentTarget.value)} {...affixes} />;
      break;
    default:
      input = <TextInput {...common} value={String(draft)} onChange={(event) => setDraft(event.currentTarget.value)} {...affixes} />;
  }

  async function save() {
    setTouched(true);
    if (error) return;
    // An untouched password field keeps the stored secret.
    if (setting.type === 'password' && draft === '') {
      onClose();
      return;
    }
    setSaving(true);
    setSaveFailure(null);
    try {
      await onSave(setting, fromDraft(setting.type, draft));
    } catch (failure) {
      // The dialog stays open with the server's reason: a save never fails silently.
      const apiError = isApiError(failure) ? failure : null;
      setSaveFailure({ message: apiError?.inputErrors.value?.[0] ?? apiError?.message ?? 'error.unknown', params: apiError?.params ?? {} });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack>
      {input}
      {saveFailure && (
        <Alert color="red" role="alert" data-testid="setting-save-error">
          {t(saveFailure.message, saveFailure.params)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={saving}>
          {t('settings.cancel')}
        </Button>
        <Button onClick={() => void save()} loading={saving} disabled={touched && error !== null} data-testid="setting-save">
          {t('settings.save')}
        </Button>
      </Group>
    </Stack>
  );
}
