import { Anchor, Group, Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import type { UnansweredQuestion } from '../../../contract/analytics/unanswered-question.ts';
import { QuestionActions } from './question-actions.tsx';

export type { UnansweredQuestion };

/**
 * The questions the bots could not answer (trace status no_answer), latest first: each can be
 * answered by adding content to its bot's knowledge base, or read in its conversation.
 */
export function UnansweredQuestions({ questions, canAddKnowledge, canViewConversations, tracesHref }: { questions: UnansweredQuestion[]; canAddKnowledge: boolean; canViewConversations: boolean; tracesHref: string | null }) {
  const { t, i18n } = useTranslation();
  const when = new Intl.DateTimeFormat(i18n.language, { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  return (
    <Paper withBorder p="md" radius="md" data-testid="unanswered-questions">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h5">
          {t('analytics.unansweredList')}
        </Title>
        {tracesHref && (
          <Anchor component={Link} size="sm" to={tracesHref} data-testid="unanswered-traces-link">
            {t('analytics.unansweredTraces')}
          </Anchor>
        )}
      </Group>
      {questions.length === 0 ? (
        <Text size="sm">{t('analytics.noUnanswered')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('analytics.question')}</Table.Th>
                <Table.Th>{t('field.bottrace.bot')}</Table.Th>
                <Table.Th>{t('analytics.times')}</Table.Th>
                <Table.Th>{t('analytics.lastAsked')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('crud.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {questions.map((item) => (
                <Table.Tr key={`${item.bot._id}:${item.question}`} data-testid="unanswered-question">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.question}</Table.Td>
                  <Table.Td>{item.bot.name ?? '—'}</Table.Td>
                  <Table.Td>{item.count}</Table.Td>
                  <Table.Td>
                    <time dateTime={item.lastAskedAt}>{when.format(new Date(item.lastAskedAt))}</time>
                  </Table.Td>
                  <Table.Td>
                    <QuestionActions question={item.question} knowledge={item.bot.knowledge} conversation={item.conversation} canAddKnowledge={canAddKnowledge} canViewConversations={canViewConversations} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
