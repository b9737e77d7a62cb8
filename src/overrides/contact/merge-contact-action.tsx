import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Text, Tooltip, type ComboboxItem } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { mayDo } from '../../../contract/permissions/entity-access.ts';
import { useEntityClient } from '../../../runtime/context/runtime-context.tsx';
import type { RowActionComponentProps } from '../../../runtime/overrides/override-registry.ts';
import { useCan } from '../../../runtime/permissions/permissions-context.tsx';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '../../../runtime/inputs/ref-select.tsx';
import { entityQueryKeys } from '../../../runtime/query/entity-query-keys.ts';
import { failureMessage } from '../../knowledge/training-outcome.ts';
import { restApi } from '../../session/api-client.ts';

const NOTIFICATION_MS = 3000;
const TOOLTIP = { openDelay: 300, closeDelay: 250 } as const;

type Row = Record<string, unknown>;

/** "Name <e-mail>": two contacts may share a name (the unverified copy usually does). */
function contactLabel(row: Row): string {
  const name = typeof row.name === 'string' ? row.name : String(row._id ?? '');
  return typeof row.email === 'string' && row.email !== '' ? `${name} <${row.email}>` : name;
}

/**
 * Issue 20: merges an (unverified) contact into another (POST /api/contacts/:id/merge). Shown
 * only to callers holding what the server requires: contact update and delete.
 */
export function MergeContactAction({ row, reload, label, icon: Icon, model }: RowActionComponentProps) {
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!mayDo(can, model.permissions, 'update') || !mayDo(can, model.permissions, 'delete')) return null;
  return (
    <>
      <Tooltip label={label} {...TOOLTIP}>
        <ActionIcon variant="subtle" aria-label={label} onClick={() => setOpen(true)} data-testid="contact-merge">
          <Icon size={18} />
        </ActionIcon>
      </Tooltip>
      {open && <MergeContactModal row={row} onClose={() => setOpen(false)} onMerged={reload} />}
    </>
  );
}

function MergeContactModal({ row, onClose, onMerged }: { row: Row; onClose: () => void; onMerged: () => void }) {
  const { t } = useTranslation();
  const entityClient = useEntityClient('contact');
  const sourceId = String(row._id ?? '');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, AUTOCOMPLETE_DEBOUNCE_MS);
  const [target, setTarget] = useState<ComboboxItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const results = useQuery({
    queryKey: entityQueryKeys('contact').search(debounced),
    queryFn: ({ signal }) => entityClient.search({ search: debounced, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options = useMemo(() => {
    const items = new Map<string, ComboboxItem>();
    if (target) items.set(target.value, target);
    for (const candidate of (results.data ?? []) as Row[]) {
      const id = String(candidate._id ?? '');
      if (id !== '' && id !== sourceId && !items.has(id)) items.set(id, { value: id, label: contactLabel(candidate) });
    }
    return [...items.values()];
  }, [results.data, sourceId, target]);

  const merge = async () => {
    if (!target) return;
    setRunning(true);
    setError(null);
    try {
      const result = await restApi.call<{ movedConversations: number }>({
        method: 'POST',
        path: `/api/contacts/${encodeURIComponent(sourceId)}/merge`,
        json: { into: target.value },
      });
      notifications.show({ message: t('contactMerge.done', { count: result.movedConversations }), color: 'green', autoClose: NOTIFICATION_MS });
      onClose();
      onMerged();
    } catch (failure) {
      setError(failureMessage(failure, t));
      setRunning(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('contactMerge.title', { name: contactLabel(row) })} size="lg">
      <Stack>
        <Select
          label={t('contactMerge.target')}
          description={t('contactMerge.targetHint')}
          data={options}
          value={target?.value ?? null}
          onChange={(_value, option) => setTarget(option ?? null)}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          // The server already filtered by the search text.
          filter={({ options: all }) => all}
          nothingFoundMessage={t('form.noResults')}
          placeholder={t('form.searchPlaceholder')}
          comboboxProps={{ zIndex: 4000 }}
          data-testid="contact-merge-target"
        />
        {target && (
          <Text size="sm" data-testid="contact-merge-confirm">
            {t('contactMerge.confirm', { source: contactLabel(row), target: target.label })}
          </Text>
        )}
        {error && (
          <Alert color="red" data-testid="contact-merge-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('contactMerge.cancel')}
          </Button>
          <Button color="red" disabled={!target} loading={running} onClick={() => void merge()} data-testid="contact-merge-submit">
            {t('contactMerge.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
