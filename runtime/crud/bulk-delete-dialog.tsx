import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BulkDeleteFailure } from '../../contract/endpoints/bulk-delete.ts';
import { isApiError } from '../transport/api-error.ts';
import type { BulkDeleteRun } from './run-bulk-delete.ts';

/** A refusal in the UI language: the server's locale key with its values, else a key for its status, else its text. */
export function refusalText(t: (key: string, options?: Record<string, unknown>) => string, error: BulkDeleteFailure | undefined): string {
  if (!error) return '';
  const byStatus: Record<number, string> = { 403: 'error.forbidden', 404: 'crud.bulk.notFound', 409: 'error.deletionFailed' };
  const key = error.i18nMessage ?? byStatus[error.status];
  return key ? t(key, { ...error.i18nParams, defaultValue: error.message }) : error.message;
}

function failureText(t: (key: string, options?: Record<string, unknown>) => string, error: unknown): string {
  if (isApiError(error)) return t(error.message, { ...error.params, defaultValue: error.message });
  return error instanceof Error ? error.message : String(error);
}

/**
 * Bulk delete: one confirmation naming the count, then the report (how many were deleted, and
 * each refused record named with its reason). Closing after a run reloads the list.
 */
export function BulkDeleteDialog(props: {
  opened: boolean;
  count: number;
  entityLabel: string;
  run: () => Promise<BulkDeleteRun>;
  onClose: (ran: boolean) => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ phase: 'confirm' | 'running' } | { phase: 'done'; run: BulkDeleteRun }>({ phase: 'confirm' });
  const close = () => {
    if (state.phase === 'running') return;
    const ran = state.phase === 'done';
    setState({ phase: 'confirm' });
    props.onClose(ran);
  };
  const start = async () => {
    setState({ phase: 'running' });
    setState({ phase: 'done', run: await props.run() });
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t('crud.bulk.title', { entity: props.entityLabel })} closeButtonProps={{ 'aria-label': t('crud.dismissDialog') }} size="lg">
      {state.phase !== 'done' ? (
        <Stack>
          <Text>{t('crud.bulk.confirm', { count: props.count })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={state.phase === 'running'}>
              {t('crud.cancel')}
            </Button>
            <Button color="red" onClick={() => void start()} loading={state.phase === 'running'} data-autofocus>
              {t('crud.bulk.run', { count: props.count })}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack data-testid="bulk-delete-report">
          <Text fw={600} role="status">
            {t('crud.bulk.deleted', { count: state.run.deleted })}
            {state.run.refused.length > 0 && ` · ${t('crud.bulk.refused', { count: state.run.refused.length })}`}
          </Text>
          {state.run.unfinished && (
            <Alert color="red" title={t('crud.bulk.unfinishedTitle')}>
              {failureText(t, state.run.unfinished.error)}
              {state.run.unfinished.ids.length > 0 && ` ${t('crud.bulk.unfinished', { count: state.run.unfinished.ids.length })}`}
            </Alert>
          )}
          {state.run.refused.length > 0 && (
            <Table.ScrollContainer minWidth={400} maxHeight="50vh">
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('crud.bulk.record')}</Table.Th>
                    <Table.Th>{t('crud.bulk.reason')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {state.run.refused.map((outcome) => (
                    <Table.Tr key={outcome.id}>
                      <Table.Td>{outcome.label}</Table.Td>
                      <Table.Td>{refusalText(t, outcome.error)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="flex-end">
            <Button onClick={close}>{t('crud.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
