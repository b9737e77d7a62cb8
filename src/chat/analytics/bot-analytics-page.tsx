import { useSearchParams } from 'react-router-dom';
import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { useState } from 'react';
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Alert, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PageFallback } from '../../app/page-fallback.tsx';
import { restApi } from '../../session/api-client.ts';
import type { Reaction } from '../../generated/types.ts';
import { REACTION_EMOJI } from '../reactions.ts';
import { mayDo } from '../../../contract/permissions/entity-access.ts';
import { useCan } from '../../../runtime/permissions/permissions-context.tsx';
import { entities } from '../../generated/entities.ts';
import type { ChatAnalytics as ChatAnalyticsReport } from '../../../contract/analytics/chat-analytics.ts';
import { NegativeAnswers } from './negative-answers.tsx';
import { UnansweredQuestions } from './unanswered-questions.tsx';

/** The report as the console reads it: reactions narrowed to the generated union. */
type ChatAnalytics = ChatAnalyticsReport<Reaction>;

const COLORS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6', 'yellow.6', 'gray.6'];

/** /analytics: the bots' answers over time (GET /api/chat/analytics, aggregated in SQL). */
export default function BotAnalyticsPage() {
  const { t } = useTranslation();
  // A bot row's analytics link opens the page on that bot (/analytics?bot=<id>).
  const [searchParams] = useSearchParams();
  const [botId, setBotId] = useState<string | null>(() => searchParams.get('bot'));
  const [range, setRange] = useState<[string | null, string | null]>([dayjs().subtract(29, 'day').format('YYYY-MM-DD'), dayjs().format('YYYY-MM-DD')]);
  const [from, to] = range;

  const bots = useQuery({
    queryKey: ['analytics-bots'],
    queryFn: () => restApi.call<{ _id: string; name: string }[]>({ method: 'GET', path: '/api/bots/find', searchParams: { limit: 1000, orderBy: 'name' } }),
  });
  const data = useQuery({
    queryKey: ['chat-analytics', botId, from, to],
    enabled: Boolean(from && to),
    queryFn: () =>
      restApi.call<ChatAnalytics>({
        method: 'GET',
        path: '/api/chat/analytics',
        searchParams: { bot: botId, from: dayjs(from).format('YYYY-MM-DD'), to: dayjs(to).format('YYYY-MM-DD') },
      }),
  });

  return (
    <Stack>
      <Title order={2}>{t('analytics.title')}</Title>
      <Group align="flex-end">
        <Select
          label={t('field.bottrace.bot')}
          placeholder={t('analytics.allBots')}
          data={(bots.data ?? []).map((bot) => ({ value: bot._id, label: bot.name }))}
          value={botId}
          onChange={setBotId}
          clearable
          searchable
          w={260}
        />
        <DatePickerInput type="range" label={t('analytics.range')} value={range} onChange={(value) => setRange(value as [string | null, string | null])} w={300} valueFormat="DD/MM/YYYY" />
      </Group>
      {data.isError && <Alert color="red">{t(data.error.message)}</Alert>}
      {data.isPending && <PageFallback />}
      {data.data && from && to && <Charts data={data.data} from={from} to={to} />}
    </Stack>
  );
}

/** Every day of the range, zeros where nothing happened, so gaps show as gaps. */
function fillDays(perDay: ChatAnalytics['perDay'], from: string, to: string) {
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const out = [];
  for (let day = dayjs(from); !day.isAfter(dayjs(to), 'day') && out.length <= 366; day = day.add(1, 'day')) {
    const key = day.format('YYYY-MM-DD');
    out.push({ ...(byDay.get(key) ?? { day: key, answers: 0, errors: 0, unanswered: 0, avgLatencyMs: 0, inputTokens: 0, outputTokens: 0 }), label: day.format('DD/MM') });
  }
  return out;
}

function Charts({ data, from, to }: { data: ChatAnalytics; from: string; to: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const days = fillDays(data.perDay, from, to);
  const reactions = data.reactions.map((r, i) => ({ name: `${REACTION_EMOJI[r.reaction] ?? ''} ${t(`enum.Reaction.${r.reaction}`)}`, value: r.count, color: COLORS[i % COLORS.length] }));
  const stat = (label: string, value: string) => (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
  return (
    <Stack data-testid="analytics-charts">
      <SimpleGrid cols={{ base: 2, md: 6 }}>
        {stat(t('analytics.answers'), String(data.totals.answers))}
        {stat(t('analytics.errors'), String(data.totals.errors))}
        {stat(t('analytics.unanswered'), String(data.totals.unanswered))}
        {stat(t('analytics.avgLatency'), `${(data.totals.avgLatencyMs / 1000).toFixed(2)} s`)}
        {stat(t('analytics.tokens'), data.totals.tokens.toLocaleString())}
        {stat(t('analytics.reactions'), String(data.totals.reactions))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Paper withBorder p="md" radius="md">
          <Title order={3} size="h5" mb="sm">{t('analytics.answersPerDay')}</Title>
          <BarChart h={240} data={days} dataKey="label" type="stacked" series={[{ name: 'answers', label: t('analytics.answers'), color: 'blue.6' }, { name: 'errors', label: t('analytics.errors'), color: 'red.6' }, { name: 'unanswered', label: t('analytics.unanswered'), color: 'orange.6' }]} withLegend />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={3} size="h5" mb="sm">{t('analytics.latency')}</Title>
          <BarChart h={240} data={data.latency} dataKey="bucket" series={[{ name: 'answers', label: t('analytics.answers'), color: 'teal.6' }]} />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={3} size="h5" mb="sm">{t('analytics.tokensPerDay')}</Title>
          <AreaChart h={240} data={days} dataKey="label" type="stacked" series={[{ name: 'inputTokens', label: t('field.bottrace.inputTokens'), color: 'grape.6' }, { name: 'outputTokens', label: t('field.bottrace.outputTokens'), color: 'orange.6' }]} withLegend />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={3} size="h5" mb="sm">{t('analytics.reactions')}</Title>
          {data.reactions.length === 0 ? (
            <Text c="dimmed" size="sm">{t('analytics.noReactions')}</Text>
          ) : (
            <Group justify="center" gap="xl">
              <DonutChart size={180} thickness={28} withTooltip data={reactions} />
              <Stack gap={4}>
                {reactions.map((r) => (
                  <Group key={r.name} gap="xs">
                    <Text size="sm">{r.name}</Text>
                    <Text size="sm" fw={700}>{r.value}</Text>
                  </Group>
                ))}
              </Stack>
            </Group>
          )}
        </Paper>
      </SimpleGrid>
      <UnansweredQuestions
        questions={data.unansweredQuestions ?? []}
        canAddKnowledge={mayDo(can, entities.knowledge.permissions, 'update')}
        canViewConversations={mayDo(can, entities.conversation.permissions, 'view')}
        tracesHref={data.noAnswerStatus && mayDo(can, entities.bottrace.permissions, 'view') ? `/crud/bottrace?filter.status=${encodeURIComponent(data.noAnswerStatus)}` : null}
      />
      <NegativeAnswers
        answers={data.negativeAnswers ?? []}
        canAddKnowledge={mayDo(can, entities.knowledge.permissions, 'update')}
        canViewConversations={mayDo(can, entities.conversation.permissions, 'view')}
      />
    </Stack>
  );
}
