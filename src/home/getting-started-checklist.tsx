import { useMemo, useState } from 'react';
import { Anchor, Button, Card, Group, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleDashed } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { requireEntityClient, useRuntime } from '../../runtime/context/runtime-context.tsx';
import { startStepLink, visibleStartSteps, type StartCount } from './getting-started.ts';

const HIDDEN_KEY = 'forja.gettingStarted.hidden';

function readHidden(): boolean {
  try {
    return localStorage.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The home page's getting-started checklist: create a knowledge base, add content, create a bot,
 * try the chat, share it. Each step is ticked from the data (a count the user may ask for) and
 * hidden when the user lacks its permissions; the card goes away once every step is done, or when
 * the user hides it.
 */
export function GettingStartedChecklist({ can }: { can: (permission: string) => boolean }) {
  const { t } = useTranslation();
  const services = useRuntime();
  const [hidden, setHidden] = useState(readHidden);
  const steps = useMemo(() => visibleStartSteps(can, services.entities), [can, services.entities]);
  // One count per distinct query (several steps share "knowledge" or "bot").
  const counts = useMemo(() => {
    const unique = new Map<string, StartCount>();
    for (const step of steps) unique.set(JSON.stringify(step.count), step.count);
    return [...unique.entries()];
  }, [steps]);
  const results = useQueries({
    queries: counts.map(([key, count]) => ({
      queryKey: ['getting-started', key],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        requireEntityClient(services, count.entity).paginate({ page: 1, limit: 1, ...(count.filters ? { filters: count.filters } : {}), signal }) as Promise<{ items: Array<{ _id?: unknown }>; total: number }>,
      enabled: !hidden,
      staleTime: 30_000,
    })),
  });
  if (hidden || steps.length === 0) return null;
  const byKey = new Map(counts.map(([key], index) => [key, results[index]]));
  // Until every count answered the card would flash unticked steps: wait for them.
  if (results.some((result) => result.isPending)) return null;
  const firstId = (entity: string) => {
    const result = byKey.get(JSON.stringify({ entity }));
    const id = result?.data?.items?.[0]?._id;
    return typeof id === 'string' ? id : null;
  };
  const first = { knowledgeId: firstId('knowledge'), botId: firstId('bot') };
  const states = steps.map((step) => {
    const total = byKey.get(JSON.stringify(step.count))?.data?.total ?? 0;
    return { step, done: total >= step.atLeast };
  });
  const doneCount = states.filter((state) => state.done).length;
  if (doneCount === states.length) return null;
  const next = states.find((state) => !state.done)?.step.name;
  const hide = () => {
    try {
      localStorage.setItem(HIDDEN_KEY, '1');
    } catch {
      // Private mode: hidden for this visit only.
    }
    setHidden(true);
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="getting-started">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Title order={3}>{t('home.start.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('home.start.subtitle')}
          </Text>
        </div>
        <Button variant="subtle" size="xs" onClick={hide}>
          {t('home.start.hide')}
        </Button>
      </Group>
      <Progress value={(100 * doneCount) / states.length} mb={4} aria-label={t('home.start.progress', { done: doneCount, total: states.length })} />
      <Text size="xs" c="dimmed" mb="md">
        {t('home.start.progress', { done: doneCount, total: states.length })}
      </Text>
      <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {states.map(({ step, done }) => {
          const link = startStepLink(step.name, first);
          const title = t(`home.start.step.${step.name}.title`);
          return (
            <Group key={step.name} component="li" wrap="nowrap" gap="sm" data-testid={`start-step-${step.name}`} data-done={done}>
              <ThemeIcon variant="light" radius="xl" size="md" color={done ? 'green' : 'gray'} aria-hidden>
                {done ? <IconCircleCheckFilled size={18} /> : <IconCircleDashed size={18} />}
              </ThemeIcon>
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={500} td={done ? 'line-through' : undefined} c={done ? 'dimmed' : undefined}>
                  {title}
                  {done && <span className="sr-only" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}> ({t('home.start.done')})</span>}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`home.start.step.${step.name}.hint`)}
                </Text>
              </Stack>
              {!done &&
                link &&
                (link.external ? (
                  <Anchor href={link.to} target="_blank" rel="noreferrer" size="sm">
                    {t(`home.start.step.${step.name}.action`)}
                  </Anchor>
                ) : (
                  <Button component={Link} to={link.to} size="xs" variant={step.name === next ? 'filled' : 'light'}>
                    {t(`home.start.step.${step.name}.action`)}
                  </Button>
                ))}
            </Group>
          );
        })}
      </Stack>
    </Card>
  );
}
