import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useEntityProvider } from '../../runtime/context/runtime-context.tsx';
import { ragApi, type RagSearchResult } from './rag-api.ts';

/** Spec §2 /knowledge/:id: a query box (Enter or Search) and the raw results with scores and sources. */
export default function KnowledgeSearchPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { t } = useTranslation();
  const provider = useEntityProvider('knowledge');
  const knowledge = useQuery({ queryKey: ['knowledge', 'record', id], queryFn: ({ signal }) => provider.findById({ id, signal }), enabled: id !== '' });
  const [query, setQuery] = useState('');
  const search = useMutation<RagSearchResult[], Error, string>({ mutationFn: (q) => ragApi.search(id, q) });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const q = query.trim();
    if (q !== '') search.mutate(q);
  };
  const name = typeof knowledge.data?.name === 'string' ? knowledge.data.name : '';

  return (
    <Stack gap="md" maw={960}>
      <Anchor component={Link} to="/crud/knowledge" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('knowledge.search.back')}
        </Group>
      </Anchor>
      <div>
        <Title order={2}>{t('knowledge.search.title')}</Title>
        {name && <Text c="dimmed">{name}</Text>}
      </div>
      {knowledge.error && (
        <Alert color="red" role="alert">
          {t(knowledge.error.message)}
        </Alert>
      )}
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('knowledge.search.query')}
            placeholder={t('knowledge.search.placeholder')}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            data-autofocus
            data-testid="knowledge-search-query"
          />
          <Button type="submit" leftSection={<IconSearch size={16} />} loading={search.isPending} disabled={query.trim() === ''}>
            {t('knowledge.search.submit')}
          </Button>
        </Group>
      </form>
      {search.error && (
        <Alert color="red" role="alert">
          {t(search.error.message)}
        </Alert>
      )}
      {search.data && (
        <Stack gap="sm" data-testid="knowledge-search-results">
          <Text size="sm" c="dimmed">
            {t('knowledge.search.count', { count: search.data.length })}
          </Text>
          {search.data.map((result, index) => (
            <Card key={`${result.hash}-${index}`} withBorder padding="sm" data-testid="knowledge-search-result">
              <Group justify="space-between" mb={6} wrap="nowrap">
                <Group gap="xs" wrap="nowrap">
                  <Badge variant="light" color={result.score >= 0.75 ? 'green' : result.score >= 0.5 ? 'yellow' : 'gray'} title={t('knowledge.search.score')}>
                    {result.score.toFixed(2)}
                  </Badge>
                  <Text size="sm" fw={500} truncate>
                    {result.source}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" ff="monospace" title={result.hash}>
                  {result.hash.slice(0, 12)}
                </Text>
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {result.content}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
