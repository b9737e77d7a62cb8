import { useMemo, useState } from 'react';
import { MultiSelect, Select, type ComboboxItem } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useEntityClient, useRuntime } from '../context/runtime-context.tsx';
import { useCan } from '../permissions/permissions-context.tsx';
import { mayDo } from '../../contract/permissions/entity-access.ts';
import { entityQueryKeys } from '../query/entity-query-keys.ts';
import { refId } from '../crud/prepare-record.ts';
import { refLabel } from '../table/format-cell.ts';

/** docs/product-rules.md#constants: autocomplete debounce. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 300;

interface RefSelectBaseProps {
  /** Referenced entity name. */
  entity: string;
  /** Field of the referenced record shown as the option label. */
  display: string;
  label?: string;
  description?: string;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  id?: string;
  onBlur?: () => void;
}

type Row = Record<string, unknown>;

function toOption(row: Row, display: string): ComboboxItem | null {
  const value = refId(row);
  return value ? { value, label: refLabel(row, display) || value } : null;
}

/**
 * Options from the debounced server search plus the labels of the currently selected ids. Nothing
 * is asked of the server that it would refuse: no lookups without permission to view the
 * referenced entity (a selected id then shows as itself), and no search in a read-only field.
 */
function useRefOptions(entity: string, display: string, selectedIds: string[], editable: boolean) {
  const entityClient = useEntityClient(entity);
  const model = useRuntime().entities[entity];
  const can = useCan();
  // Without a model for the target (a test harness), nothing is known to forbid.
  const canView = !model || mayDo(can, model.permissions, 'view');
  const keys = entityQueryKeys(entity);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, AUTOCOMPLETE_DEBOUNCE_MS);
  const results = useQuery({
    queryKey: keys.search(debounced),
    queryFn: ({ signal }) => entityClient.search({ search: debounced, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled: canView && editable,
  });
  const selected = useQuery({
    queryKey: keys.byIds(selectedIds),
    queryFn: ({ signal }) => entityClient.findByIds({ ids: selectedIds, signal }),
    enabled: canView && selectedIds.length > 0,
    staleTime: 60_000,
  });
  const data = useMemo(() => {
    const options = new Map<string, ComboboxItem>();
    for (const row of [...(selected.data ?? []), ...(results.data ?? [])]) {
      const option = toOption(row, display);
      if (option && !options.has(option.value)) options.set(option.value, option);
    }
    // A selected id the server no longer knows still shows, as itself, so it can be cleared.
    for (const id of selectedIds) if (!options.has(id)) options.set(id, { value: id, label: id });
    return [...options.values()];
  }, [results.data, selected.data, selectedIds, display]);
  return { data, search, setSearch, loading: results.isFetching };
}

/** Autocomplete against the referenced entity's search (docs/product-rules.md#screens); the value is the record's _id. */
export function RefSelect(props: RefSelectBaseProps & { value: string | null; onChange: (value: string | null) => void }) {
  const { t } = useTranslation();
  const selectedIds = useMemo(() => (props.value ? [props.value] : []), [props.value]);
  const { data, search, setSearch } = useRefOptions(props.entity, props.display, selectedIds, !props.disabled);
  return (
    <Select
      id={props.id}
      label={props.label}
      description={props.description}
      error={props.error}
      required={props.required}
      disabled={props.disabled}
      data={data}
      value={props.value}
      onChange={(value) => props.onChange(value)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already filtered by the search text; a second client filter would hide matches.
      filter={({ options }) => options}
      clearable={props.clearable ?? true}
      nothingFoundMessage={t('form.noResults')}
      placeholder={t('form.searchPlaceholder')}
      onBlur={props.onBlur}
      comboboxProps={{ zIndex: 4000 }}
    />
  );
}

/** array.ref: multi-select shown as chips. */
export function RefMultiSelect(props: RefSelectBaseProps & { value: string[]; onChange: (value: string[]) => void }) {
  const { t } = useTranslation();
  const { data, search, setSearch } = useRefOptions(props.entity, props.display, props.value, !props.disabled);
  return (
    <MultiSelect
      id={props.id}
      label={props.label}
      description={props.description}
      error={props.error}
      required={props.required}
      disabled={props.disabled}
      data={data}
      value={props.value}
      onChange={props.onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      clearable={props.clearable ?? true}
      nothingFoundMessage={t('form.noResults')}
      placeholder={props.value.length === 0 ? t('form.searchPlaceholder') : undefined}
      onBlur={props.onBlur}
      comboboxProps={{ zIndex: 4000 }}
    />
  );
}
