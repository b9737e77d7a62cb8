import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconBookUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * Where "add to knowledge" leads: the knowledge base's page with its add-content flow open and its
 * text prefilled with the question (src/knowledge/knowledge-page.tsx reads ?add and ?text).
 */
export function addToKnowledgeHref(knowledgeId: string, question: string): string {
  const query = new URLSearchParams({ add: 'text', text: question });
  return `/knowledge/${encodeURIComponent(knowledgeId)}?${query.toString()}`;
}

/**
 * The actions of a question the bot did not answer well (unanswered or rated badly): add it to the
 * bot's knowledge base, or say why not, and open its conversation.
 */
export function QuestionActions({ question, knowledge, conversation, canAddKnowledge, canViewConversations }: { question: string; knowledge: string | null | undefined; conversation: string | null | undefined; canAddKnowledge: boolean; canViewConversations: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      {knowledge && canAddKnowledge ? (
        <Button component={Link} to={addToKnowledgeHref(knowledge, question)} size="compact-sm" variant="light" leftSection={<IconBookUpload size={14} />} data-testid="add-to-knowledge">
          {t('analytics.addToKnowledge')}
        </Button>
      ) : (
        <Text size="xs">{t(knowledge ? 'analytics.noKnowledgePermission' : 'analytics.botWithoutKnowledge')}</Text>
      )}
      {conversation && canViewConversations && (
        <Anchor component={Link} size="sm" to={`/crud/conversation?view=${encodeURIComponent(conversation)}`}>
          {t('analytics.openConversation')}
        </Anchor>
      )}
    </Group>
  );
}
