import { Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { NegativeAnswer } from '../../../contract/analytics/negative-answer.ts';
import type { Reaction } from '../../generated/types.ts';
import { REACTION_EMOJI } from '../reactions.ts';
import { QuestionActions } from './question-actions.tsx';

/**
 * Answers visitors rated Incorrecto, Poco útil or Confuso, latest first (issue 28 item 6): the
 * same loop as the unanswered questions, "add to knowledge" prefilled with the question.
 */
export function NegativeAnswers({ answers, canAddKnowledge, canViewConversations }: { answers: NegativeAnswer[]; canAddKnowledge: boolean; canViewConversations: boolean }) {
  const { t, i18n } = useTranslation();
  const when = new Intl.DateTimeFormat(i18n.language, { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  return (
    <Paper withBorder p="md" radius="md" data-testid="negative-answers">
      <Title order={3} size="h5" mb="sm">
        {t('analytics.negativeList')}
      </Title>
      {answers.length === 0 ? (
        <Text size="sm">{t('analytics.noNegative')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('analytics.question')}</Table.Th>
                <Table.Th>{t('analytics.answer')}</Table.Th>
                <Table.Th>{t('field.bottrace.reaction')}</Table.Th>
                <Table.Th>{t('field.bottrace.bot')}</Table.Th>
                <Table.Th>{t('analytics.ratedAt')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('crud.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {answers.map((item) => (
                <Table.Tr key={item.trace} data-testid="negative-answer">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.question}</Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                      {item.answer}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {REACTION_EMOJI[item.reaction as Reaction] ?? ''} {t(`enum.Reaction.${item.reaction}`, { defaultValue: item.reaction })}
                  </Table.Td>
                  <Table.Td>{item.bot.name ?? '—'}</Table.Td>
                  <Table.Td>
                    <time dateTime={item.ratedAt}>{when.format(new Date(item.ratedAt))}</time>
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
