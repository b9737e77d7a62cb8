import { useEffect, useState } from 'react';
import { Anchor, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ActiveJobProgress } from '../jobs/active-job-progress.tsx';
import type { ExportFile } from '../clients/queries.ts';

export interface ExportEntry {
  key: number;
  format: string;
  /** Null while the export runs. */
  file: ExportFile | null;
}

/**
 * The export list under the table (docs/product-rules.md#screens): Link, Rows and Time, with Clear and Close. A link is
 * signed for the user and short-lived (server/files/export-files.ts): past its time it says so
 * instead of leading to an error page. The file downloads as an attachment (the server's
 * Content-Disposition), so it never replaces the console.
 */
export function ExportPanel(props: { entries: ExportEntry[]; onClear: () => void; onClose: () => void; /** Whose export job's progress to show while one runs. */ entity?: string }) {
  const { t, i18n } = useTranslation();
  const now = useNow(15_000);
  return (
    <Paper withBorder p="sm" mt="md" aria-label={t('crud.export.title')}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">{t('crud.export.title')}</Title>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={props.onClear}>
            {t('crud.export.clear')}
          </Button>
          <Button size="xs" variant="default" onClick={props.onClose}>
            {t('crud.export.close')}
          </Button>
        </Group>
      </Group>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('crud.export.link')}</Table.Th>
            <Table.Th>{t('crud.export.rows')}</Table.Th>
            <Table.Th>{t('crud.export.time')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.entries.map((entry) => (
            <Table.Tr key={entry.key}>
              <Table.Td>
                {entry.file && isExpired(entry.file.expiresAt, now) ? (
                  <Text size="sm" c="dimmed">{t('crud.export.expired')}</Text>
                ) : entry.file ? (
                  <Anchor
                    href={entry.file.url}
                    download
                    rel="noreferrer"
                    title={entry.file.expiresAt ? t('crud.export.expires', { time: new Date(entry.file.expiresAt).toLocaleTimeString(i18n.language) }) : undefined}
                  >
                    {`${t('crud.export.download')} ${entry.format}`}
                  </Anchor>
                ) : (
                  <>
                    <Text size="sm" c="dimmed">{t('crud.export.pending')}</Text>
                    {props.entity && <ActiveJobProgress kind="export" entity={props.entity} />}
                  </>
                )}
              </Table.Td>
              <Table.Td>{entry.file?.rowCount ?? ''}</Table.Td>
              <Table.Td>{entry.file ? `${entry.file.time} ms` : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function isExpired(expiresAt: string | undefined, now: number): boolean {
  return expiresAt !== undefined && Date.parse(expiresAt) <= now;
}

/** The current time, refreshed every `intervalMs` so expired links turn into their notice. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
