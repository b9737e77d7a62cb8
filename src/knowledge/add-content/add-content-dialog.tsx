import { useMemo, useState } from 'react';
import { Accordion, Alert, Button, Group, Modal, NumberInput, Progress, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { IconFileText, IconLink, IconSchool, IconTextCaption } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ContentItemRow } from './content-item-row.tsx';
import { fileItem, linkItems, MAX_ITEMS, MAX_TEXT_LENGTH, textItem } from './content-item.ts';
import { FilesDrop } from './files-drop.tsx';
import { useAddContent, type AddContentDeps } from './use-add-content.ts';

export interface AddContentDialogProps {
  opened: boolean;
  knowledgeName: string;
  deps: AddContentDeps;
  /** Text to start with (e.g. an unanswered question to answer). */
  initialText?: string;
  onClose: () => void;
  /** After a training of the added content, so the page reloads the base and its sources. */
  onTrained: () => void;
}

/**
 * "Add content" to a knowledge base in one flow: paste text, drop files or give links; each item
 * is read and chunked at once (its chunks previewed, the chunk settings folded away), then one
 * button saves them as knowledge sources, adds them to the base and trains it, with a progress bar.
 */
export function AddContentDialog(props: AddContentDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onClose} size="xl" title={t('knowledge.add.title', { name: props.knowledgeName })} closeOnClickOutside={false}>
      {props.opened && <AddContentFlow {...props} />}
    </Modal>
  );
}

function AddContentFlow({ deps, initialText = '', onClose, onTrained }: AddContentDialogProps) {
  const { t } = useTranslation();
  const flow = useAddContent(deps);
  const [tab, setTab] = useState<string>('text');
  const [title, setTitle] = useState('');
  const [text, setText] = useState(initialText);
  const [links, setLinks] = useState('');
  const running = flow.phase === 'saving' || flow.phase === 'training';
  const pending = flow.items.filter((item) => item.status !== 'saved');
  const done = flow.phase === 'done';

  const addText = () => {
    flow.add([textItem(text, title)]);
    setText('');
    setTitle('');
  };
  const addLinks = () => {
    flow.add(linkItems(links));
    setLinks('');
  };
  const submit = async () => {
    await flow.submit();
  };
  const finish = () => {
    if (done) onTrained();
    onClose();
  };
  const summary = useMemo(() => {
    if (!flow.result) return null;
    return t('knowledge.add.trained', { count: flow.result.chunks });
  }, [flow.result, t]);

  return (
    <Stack gap="md" data-testid="add-content">
      <Tabs value={tab} onChange={(value) => value && setTab(value)}>
        <Tabs.List>
          <Tabs.Tab value="text" leftSection={<IconTextCaption size={16} />}>{t('knowledge.add.tab.text')}</Tabs.Tab>
          <Tabs.Tab value="files" leftSection={<IconFileText size={16} />}>{t('knowledge.add.tab.files')}</Tabs.Tab>
          <Tabs.Tab value="links" leftSection={<IconLink size={16} />}>{t('knowledge.add.tab.links')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="text" pt="sm">
          <Stack gap="xs">
            <TextInput label={t('knowledge.add.text.title')} description={t('knowledge.add.text.titleHint')} value={title} maxLength={200} onChange={(event) => setTitle(event.currentTarget.value)} disabled={running} />
            <Textarea
              label={t('knowledge.add.text.label')}
              placeholder={t('knowledge.add.text.placeholder')}
              rows={8}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              disabled={running}
              error={text.length > MAX_TEXT_LENGTH ? t('knowledge.add.error.textTooLong') : undefined}
              data-testid="add-text"
            />
            <Group justify="flex-end">
              <Button variant="light" onClick={addText} disabled={running || text.trim() === ''}>
                {t('knowledge.add.text.add')}
              </Button>
            </Group>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="files" pt="sm">
          <FilesDrop disabled={running} onFiles={(files) => flow.add(files.map(fileItem))} />
        </Tabs.Panel>
        <Tabs.Panel value="links" pt="sm">
          <Stack gap="xs">
            <Textarea
              label={t('knowledge.add.links.label')}
              description={t('knowledge.add.links.hint')}
              placeholder="https://"
              rows={5}
              value={links}
              onChange={(event) => setLinks(event.currentTarget.value)}
              disabled={running}
              data-testid="add-links"
            />
            <Group justify="flex-end">
              <Button variant="light" onClick={addLinks} disabled={running || links.trim() === ''}>
                {t('knowledge.add.links.add')}
              </Button>
            </Group>
          </Stack>
        </Tabs.Panel>
      </Tabs>

      {flow.refused > 0 && (
        <Alert color="yellow" data-testid="add-refused">
          {t('knowledge.add.error.tooManyItems', { max: MAX_ITEMS, count: flow.refused })}
        </Alert>
      )}

      {flow.items.length > 0 && (
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t('knowledge.add.items', { count: flow.items.length })}
          </Text>
          {flow.items.map((item) => (
            <ContentItemRow key={item.key} item={item} trained={done} onRemove={running ? undefined : () => flow.remove(item.key)} />
          ))}
        </Stack>
      )}

      <Accordion variant="contained" chevronPosition="left">
        <Accordion.Item value="chunking">
          <Accordion.Control>{t('knowledge.add.chunking.title')}</Accordion.Control>
          <Accordion.Panel>
            <Text size="xs" c="dimmed" mb="xs">
              {t('knowledge.add.chunking.hint')}
            </Text>
            <Group grow>
              <NumberInput
                label={t('knowledge.add.chunking.size')}
                min={100}
                max={8000}
                step={100}
                value={flow.settings.chunkSize}
                disabled={running}
                onChange={(value) => {
                  const size = Number(value);
                  if (Number.isInteger(size) && size >= 100 && size <= 8000) flow.setSettings({ chunkSize: size, chunkOverlap: Math.min(flow.settings.chunkOverlap, size - 1) });
                }}
              />
              <NumberInput
                label={t('knowledge.add.chunking.overlap')}
                min={0}
                max={flow.settings.chunkSize - 1}
                step={50}
                value={flow.settings.chunkOverlap}
                disabled={running}
                onChange={(value) => {
                  const overlap = Number(value);
                  if (Number.isInteger(overlap) && overlap >= 0 && overlap < flow.settings.chunkSize) flow.setSettings({ ...flow.settings, chunkOverlap: overlap });
                }}
              />
            </Group>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>

      {(flow.items.length > 0 || flow.phase !== 'idle') && (
        <Stack gap={4}>
          <Progress
            value={flow.progress.percent}
            animated={running || flow.reading > 0}
            color={flow.phase === 'failed' ? 'red' : done ? 'green' : 'blue'}
            aria-label={t(flow.progress.label.key, flow.progress.label.values)}
            data-testid="add-progress"
          />
          <Text size="xs" c="dimmed" aria-live="polite" data-testid="add-progress-label">
            {t(flow.progress.label.key, flow.progress.label.values)}
          </Text>
        </Stack>
      )}

      {flow.flowError && (
        <Alert color="red" role="alert" data-testid="add-error">
          {t(flow.flowError)}
        </Alert>
      )}
      {done && summary && (
        <Alert color={flow.result?.problems.length ? 'orange' : 'green'} data-testid="add-done">
          {summary}
          {flow.result?.problems.length ? ` · ${t('knowledge.state.problems', { count: flow.result.problems.length })}` : ''}
        </Alert>
      )}

      <Group justify="flex-end">
        <Button variant="default" onClick={finish} disabled={running}>
          {t(done ? 'knowledge.add.close' : 'crud.cancel')}
        </Button>
        <Button
          leftSection={<IconSchool size={16} />}
          onClick={() => void submit()}
          loading={running}
          disabled={flow.readyCount === 0 || flow.reading > 0}
          data-testid="add-submit"
        >
          {t('knowledge.add.submit', { count: flow.readyCount })}
        </Button>
      </Group>
      {pending.length === 0 && flow.items.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('knowledge.add.empty')}
        </Text>
      )}
    </Stack>
  );
}
