import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Code, Group, List, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../../runtime/transport/api-error.ts';
import { studioApi, type Manifest, type PlanResult, type SaveResult, type StudioTexts } from './studio-api.ts';
import { describe } from './issue-errors.ts';
import { useQueryClient } from '@tanstack/react-query';

interface SaveDialogProps {
  manifest: Manifest;
  texts: StudioTexts;
  /** The entity the draft was opened as (null: a new one). */
  entity: string | null;
  /** The file the save writes (the one holding the entity). */
  file: string;
  version: string | null;
  onClose: () => void;
  onSaved: (result: SaveResult) => void | Promise<void>;
  /** Someone else saved the manifest meanwhile: reload their version. */
  onConflict: () => void | Promise<void>;
}

const show = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

/** Save = diff + plan + apply: what will change is shown first; a refused plan cannot be confirmed. */
export function SaveDialog({ manifest, texts, entity, file, version, onClose, onSaved, onConflict }: SaveDialogProps) {
  const { t } = useTranslation();
  const [plan, setPlan] = useState<PlanResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saved, setSaved] = useState<SaveResult | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  useEffect(() => {
    studioApi.plan({ manifest, texts, entity }).then(setPlan, (e: unknown) => setError(isApiError(e) ? e.message : String(e)));
  }, [manifest, texts, entity]);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await studioApi.save({ manifest, texts, entity }, version);
      if (result.live === 'applied') {
        // The server serves the new model: the console takes it (src/app/live-model.ts), the
        // session its new permissions (a new entity's), and every list is read again.
        // (Loaded already with the signed-in screens; imported here so the studio's own module graph stays small.)
        const [{ refreshLiveModel }, { session }] = await Promise.all([import('../app/live-model.ts'), import('../session/session.ts')]);
        await refreshLiveModel();
        await session.reloadUser();
        await queryClient.invalidateQueries();
      }
      setSaved(result);
      await onSaved(result);
    } catch (e) {
      if (isApiError(e) && e.status === 409) setConflict(true);
      else setError(isApiError(e) ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const refusals = plan?.plan.refusals ?? [];
  const route = (plan?.preview?.model as { route?: { path?: string } | null } | undefined)?.route?.path;

  return (
    <Modal opened onClose={onClose} title={t('studio.saveTitle', { file: plan?.file ?? file })} size="xl">
      <Stack gap="sm">
        {!plan && !error && <Loader size="sm" aria-label={t('studio.planning')} />}
        {error && <Alert color="red">{error}</Alert>}
        {conflict && (
          <Alert color="orange" title={t('studio.conflictTitle')} data-testid="studio-conflict">
            <Text size="sm">{t('studio.conflict')}</Text>
            <Button mt="xs" size="xs" onClick={() => void onConflict()}>{t('studio.loadCurrent')}</Button>
          </Alert>
        )}
        {saved && (
          <Alert color="green" title={t('studio.saved')} data-testid="studio-saved">
            <Text size="sm">{saved.message}</Text>
            {route && <Anchor component={Link} to={route}>{t('studio.openPage')}</Anchor>}
          </Alert>
        )}
        {plan && (
          <>
            {plan.issues.length > 0 && <Alert color="red">{plan.issues.map(describe).join('\n')}</Alert>}
            <Title order={3} size="h5">{t('studio.diff')}</Title>
            {plan.diff.length === 0 ? <Text size="sm" c="dimmed">{t('studio.noChanges')}</Text> : (
              <List size="sm" data-testid="studio-diff">
                {plan.diff.map((change, i) => (
                  <List.Item key={i}><Code>{change.path}</Code> {t(`studio.change.${change.kind}`)} {change.kind !== 'added' && <Text span c="red" size="xs">{show(change.before)}</Text>} {change.kind !== 'removed' && <Text span c="green" size="xs">{show(change.after)}</Text>}</List.Item>
                ))}
              </List>
            )}
            <Title order={3} size="h5">{t('studio.localeKeys')}</Title>
            {plan.localeKeys.length === 0 ? <Text size="sm" c="dimmed">{t('studio.noLocaleKeys')}</Text> : (
              <List size="sm">{plan.localeKeys.map((k) => <List.Item key={k.key}><Code>{k.key}</Code> es: “{k.es}” · en: “{k.en}”</List.Item>)}</List>
            )}
            <Title order={3} size="h5">{t('studio.plan')}</Title>
            {plan.plan.text ? <Code block data-testid="studio-plan" tabIndex={0}>{plan.plan.text}</Code> : <Text size="sm" c="dimmed">{t('studio.noMigration')}</Text>}
            {refusals.length > 0 && (
              <Alert color="red" title={t('studio.refused')} data-testid="studio-refused">
                {refusals.map((r, i) => <Text key={i} size="sm">{t('studio.refusal', { field: r.field })} {r.message}</Text>)}
              </Alert>
            )}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{saved ? t('studio.close') : t('studio.cancel')}</Button>
          {!saved && <Button onClick={() => void confirm()} loading={busy} disabled={!plan || !plan.ok || conflict} data-testid="studio-confirm">{t('studio.confirm')}</Button>}
        </Group>
      </Stack>
    </Modal>
  );
}
