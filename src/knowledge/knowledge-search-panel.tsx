import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ragApi, type RagSearchResult } from './rag-api.ts';

/** docs/product-rules.md#screens /knowledge/:id: a query box (Enter or Search) and the raw results with scores and sources. */
export function KnowledgeSearchPanel({ id }: { id: string }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const search = useMutation<RagSearchResult[], Error, string>({ mutationFn: (q) => ragApi.search(id, q) });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const q = query.trim();
    if (q !== '') search.mutate(q);
  };

  return (
    <Stack gap="sm">
      <Title order={3}>{t('knowledge.search.title')}</Title>
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('knowledge.search.query')}
            placeholder={t('knowledge.search.placeholder')}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
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
