import '@mantine/spotlight/styles.css';
import { useMemo, useState } from 'react';
import { Loader, Text } from '@mantine/core';
import { Spotlight } from '@mantine/spotlight';
import { useDebouncedValue } from '@mantine/hooks';
import { IconKey, IconListCheck, IconSearch, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { requireEntityClient, useRuntime } from '../../../runtime/context/runtime-context.tsx';
import { requireMenuIcon } from '../../home/menu-icons.ts';
import { useSessionCan } from '../../session/session.ts';
import { ownApiKeysAllowed } from '../layouts/own-api-keys.ts';
import { matchPages, MIN_RECORD_QUERY, palettePages, recordTitle, RECORDS_PER_ENTITY, type PalettePage } from './palette-entries.ts';
import { paletteStore } from './palette-store.ts';
import { useVisibleMenu } from './use-visible-menu.ts';

const ACCOUNT_ICONS: Record<string, typeof IconUser> = { '/profile': IconUser, '/jobs': IconListCheck, '/crud/user-api-key': IconKey };
const SEARCH_DELAY_MS = 250;

/**
 * The command palette (issue 27 item 5), Ctrl+K (⌘K on a Mac) anywhere in the console: type to
 * jump to any page the user may open (the gallery's list, useVisibleMenu) or to a record found
 * by the entities' own search (their searchable fields, as each list's search box), opened in
 * its page's view dialog (?view=<id>).
 */
export default function CommandPalette() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const services = useRuntime();
  const can = useSessionCan();
  const groups = useVisibleMenu();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), SEARCH_DELAY_MS);
  const pages = useMemo(() => {
    const account: PalettePage[] = [
      { key: '/profile', label: 'app.profile', group: 'palette.account', path: '/profile', icon: '', entity: null },
      { key: '/jobs', label: 'jobs.open', group: 'palette.account', path: '/jobs', icon: '', entity: null },
      ...(ownApiKeysAllowed(can) ? [{ key: '/crud/user-api-key', label: 'entity.userApiKey.plural', group: 'palette.account', path: '/crud/user-api-key', icon: '', entity: null }] : []),
    ];
    return palettePages(groups, account);
  }, [groups, can]);
  const matching = matchPages(pages, query, t);
  // Entities whose list has a search box: the same search, a few rows each.
  const searchable = useMemo(
    () => pages.filter((page) => page.entity && services.entities[page.entity]?.fields.some((field) => field.searchable)),
    [pages, services.entities],
  );
  const records = useQuery({
    queryKey: ['palette-search', debounced, searchable.map((page) => page.entity)],
    enabled: debounced.length >= MIN_RECORD_QUERY,
    staleTime: 10_000,
    queryFn: async ({ signal }) => {
      const found = await Promise.allSettled(
        searchable.map(async (page) => ({ page, rows: await requireEntityClient(services, page.entity!).find({ search: debounced, limit: RECORDS_PER_ENTITY, signal }) })),
      );
      // An entity whose search fails (a timeout) does not hide the others' results.
      return found.flatMap((result) => (result.status === 'fulfilled' && result.value.rows.length > 0 ? [result.value] : []));
    },
  });
  const searching = debounced.length >= MIN_RECORD_QUERY && (records.isFetching || debounced !== query.trim());
  const go = (path: string) => navigate(path);
  const icon = (page: PalettePage) => {
    const Icon = page.icon ? requireMenuIcon(page.icon) : (ACCOUNT_ICONS[page.path] ?? IconSearch);
    return <Icon size={18} />;
  };
  const hits = debounced.length >= MIN_RECORD_QUERY ? (records.data ?? []) : [];
  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      scrollable
      maxHeight={440}
      zIndex={3000}
      // The dialog's name (Modal's title, which labels it); an aria-label here would land on a plain div.
      title={t('palette.title')}
      store={paletteStore}
    >
      <Spotlight.Search placeholder={t('palette.placeholder')} aria-label={t('palette.placeholder')} leftSection={<IconSearch size={18} />} rightSection={searching ? <Loader size="xs" /> : undefined} data-testid="palette-input" />
      <Spotlight.ActionsList data-testid="palette-results">
        {matching.length > 0 && (
          <Spotlight.ActionsGroup label={t('palette.pages')}>
            {matching.map((page) => (
              <Spotlight.Action key={page.key} label={t(page.label)} description={t(page.group)} leftSection={icon(page)} onClick={() => go(page.path)} data-testid={`palette-page-${page.path}`} />
            ))}
          </Spotlight.ActionsGroup>
        )}
        {hits.map(({ page, rows }) => (
          <Spotlight.ActionsGroup key={page.key} label={t(page.label)}>
            {rows.map((row) => {
              const record = row as Record<string, unknown>;
              const id = String(record._id ?? record.id ?? '');
              return (
                <Spotlight.Action
                  key={`${page.key}:${id}`}
                  label={recordTitle(record)}
                  description={t(page.label)}
                  leftSection={icon(page)}
                  onClick={() => go(`${page.path}?view=${encodeURIComponent(id)}`)}
                  data-testid="palette-record"
                />
              );
            })}
          </Spotlight.ActionsGroup>
        ))}
        {matching.length === 0 && hits.length === 0 && !searching && <Spotlight.Empty>{t('palette.nothingFound')}</Spotlight.Empty>}
      </Spotlight.ActionsList>
      <Text size="xs" c="dimmed" px="md" py={6}>
        {t('palette.hint')}
      </Text>
    </Spotlight.Root>
  );
}
