import { useRef, useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ActiveJobProgress } from '../jobs/active-job-progress.tsx';
import type { ClientEntityModel, FileFormat } from '../model/client-entity-model.ts';
import type { ImportReport } from '../clients/queries.ts';
import type { AnyEntityClient } from '../context/runtime-context.tsx';
import { isApiError } from '../transport/api-error.ts';

export interface ImportDialogProps {
  model: ClientEntityModel;
  entityClient: AnyEntityClient;
  opened: boolean;
  onClose: () => void;
  /** Called after a real import created records. */
  onImported: (report: ImportReport) => void;
}

/** Import in two steps: a dry run shows the server's report, then the user imports for real. */
export function ImportDialog({ model, entityClient, opened, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<FileFormat>(model.import.formats[0] ?? 'CSV');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Only the latest run's answer counts: a slow check of the file before never overwrites it.
  const latest = useRef(0);

  async function run(dryRun: boolean, chosen: File | null = file) {
    if (!chosen) return;
    const file = chosen;
    const ticket = ++latest.current;
    setBusy(true);
    setError(null);
    try {
      const result = await entityClient.import({ file, format, dryRun });
      // Records a real import created are reported whatever happened to the dialog meanwhile.
      if (!dryRun) onImported(result);
      if (ticket !== latest.current) return;
      setReport(result);
    } catch (failure) {
      if (ticket !== latest.current) return;
      // A rejected import (400) carries its report beside the error shape: show its rows.
      const rejected = isApiError(failure) ? asReport(failure.body) : null;
      if (rejected) setReport(rejected);
      else console.error(failure);
      setError(isApiError(failure) ? failure.message : 'error.unknown');
    } finally {
      if (ticket === latest.current) setBusy(false);
    }
  }

  function close() {
    setFile(null);
    setReport(null);
    setError(null);
    onClose();
  }

  return (
    <Modal opened={opened} onClose={close} title={t('crud.import.title', { entity: t(model.label) })} size="lg" zIndex={model.dialog.zIndex}>
      <Stack>
        <Group grow align="flex-end">
          <FileInput
            label={t('crud.import.file')}
            value={file}
            onChange={(next) => {
              setFile(next);
              setReport(null);
              setError(null);
              // A new file is checked at once, so Importar follows the file chosen now, not the
              // report of the one before (it stayed disabled, issue 27).
              if (next) void run(true, next);
              else latest.current += 1;
            }}
            accept={format === 'CSV' ? '.csv,text/csv' : '.json,application/json'}
            clearable
          />
          <Select
            label={t('crud.import.format')}
            data={model.import.formats}
            value={format}
            onChange={(next) => next && setFormat(next as FileFormat)}
            allowDeselect={false}
            comboboxProps={{ zIndex: model.dialog.zIndex + 1 }}
          />
        </Group>
        {error && (
          <Alert color="red" withCloseButton onClose={() => setError(null)}>
            {t(error)}
          </Alert>
        )}
        {report && (
          <Stack gap="xs" aria-label={t('crud.import.reportTitle')}>
            <Text fw={600}>
              {report.dryRun ? t('crud.import.reportTitle') : report.invalid > 0 ? t('crud.import.rejected') : t('crud.import.done', { count: report.created })}
            </Text>
            <SimpleGrid cols={4}>
              <Text size="sm">{`${t('crud.import.total')}: ${report.total}`}</Text>
              <Text size="sm" c="green">{`${t('crud.import.valid')}: ${report.valid}`}</Text>
              <Text size="sm" c="red">{`${t('crud.import.invalid')}: ${report.invalid}`}</Text>
              <Text size="sm">{`${t('crud.import.created')}: ${report.created}`}</Text>
            </SimpleGrid>
            {report.errors.length > 0 && (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('crud.import.row')}</Table.Th>
                    <Table.Th>{t('crud.import.field')}</Table.Th>
                    <Table.Th>{t('crud.import.reason')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.errors.map((rowError, index) => (
                    <Table.Tr key={index}>
                      <Table.Td>{rowError.row}</Table.Td>
                      <Table.Td>{fieldLabel(model, rowError.field, t)}</Table.Td>
                      <Table.Td>{t(rowError.reason, rowError.params ?? {})}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        )}
        {busy && <ActiveJobProgress kind="import" entity={model.name} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('crud.close')}
          </Button>
          <Button variant="light" disabled={!file} loading={busy} onClick={() => void run(true)}>
            {t('crud.import.check')}
          </Button>
          <Button disabled={!file || !report?.dryRun || report.valid === 0} loading={busy} onClick={() => void run(false)}>
            {t('crud.import.run')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The column of an import error as people read it: the field's label (a nested path by its
 * top-level field, "Textos › 2 › title"), the raw name only for what the model does not know.
 */
export function fieldLabel(model: ClientEntityModel, field: string | null | undefined, t: (key: string) => string): string {
  if (!field) return '';
  const [head, ...rest] = field.split('.');
  const known = model.fields.find((candidate) => candidate.name === head);
  if (!known) return field;
  return [t(known.label), ...rest].join(' › ');
}

/** The import report inside a rejected import's error body, when it is one. */
function asReport(body: unknown): ImportReport | null {
  if (!body || typeof body !== 'object') return null;
  const candidate = body as Partial<ImportReport>;
  return Array.isArray(candidate.errors) && typeof candidate.total === 'number' ? (candidate as ImportReport) : null;
}
