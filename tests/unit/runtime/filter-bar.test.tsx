// The filter bar's inputs by field type (runtime/table/filter-input.tsx): text "contains", numbers
// and dates as a from / to range (either bound optional), and its state in the address, so a
// filtered list reloads and can be shared: read at mount, sent to the list API, written back.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CrudPage } from '../../../runtime/crud/crud-page.tsx';
import { FilterInput } from '../../../runtime/table/filter-input.tsx';
import type { FieldModel, FilterModel } from '../../../runtime/model/client-entity-model.ts';
import type { FilterInput as SentFilter } from '../../../runtime/clients/queries.ts';
import { entities } from '../../../src/generated/entities.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);
afterEach(() => window.history.replaceState(null, '', '/'));

const WAIT = { timeout: 10_000 };
const numberField = { ...entities.bot.fields[0], name: 'tokens', type: 'number', label: 'Tokens', ref: null, values: null, valueLabels: null } as FieldModel;

function renderInput(filter: FilterModel, field: FieldModel | null, value: unknown) {
  const onChange = vi.fn();
  render(
    <RuntimeHarness services={{ entityClients: {}, forms: {} }}>
      <FilterInput filter={filter} field={field} value={value} onChange={onChange} />
    </RuntimeHarness>,
  );
  return onChange;
}

describe('filter inputs by field type', () => {
  it.each(['eq', 'gte', 'lte'] as const)('a number filter (%s) is a from / to pair, either bound optional', (operator) => {
    const onChange = renderInput({ field: 'tokens', operator, label: 'Tokens', permission: null }, numberField, { lte: 9 });
    const from = screen.getByRole('textbox', { name: 'Tokens desde' });
    const to = screen.getByRole('textbox', { name: 'Tokens hasta' });
    expect(to).toHaveValue('9');
    fireEvent.change(from, { target: { value: '5' } });
    expect(onChange).toHaveBeenLastCalledWith('tokens', { gte: 5, lte: 9 });
    fireEvent.change(to, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith('tokens', null);
  });

  it('a number filter with another operator (ne) keeps its one input', () => {
    renderInput({ field: 'tokens', operator: 'ne', label: 'Tokens', permission: null }, numberField, undefined);
    expect(screen.getByRole('textbox', { name: 'Tokens' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Tokens desde' })).toBeNull();
  });

  it('a date filter (createdAt, a system field) is a from / to pair of date pickers', async () => {
    renderInput({ field: 'createdAt', operator: 'eq', label: 'Creado', permission: null }, null, { gte: new Date('2026-01-02T03:04:05Z') });
    expect(await screen.findByRole('button', { name: /Creado desde/ }, WAIT)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Creado hasta/ })).toBeInTheDocument();
  });

  it.each([
    ['desde', { gte: '00:00:00.000' }],
    ['hasta', { lte: '23:59:59.999' }],
  ] as const)('a day picked as %s bounds the whole day (from its start, through its end)', async (bound, expected) => {
    const onChange = renderInput({ field: 'createdAt', operator: 'eq', label: 'Creado', permission: null }, null, undefined);
    fireEvent.click(await screen.findByRole('button', { name: new RegExp(`Creado ${bound}`) }, WAIT));
    const day = (await screen.findAllByRole('button', { name: /^15 / }, WAIT))[0]!;
    fireEvent.click(day);
    const submit = document.querySelector<HTMLButtonElement>('.mantine-DateTimePicker-submitButton');
    expect(submit).not.toBeNull();
    fireEvent.click(submit!);
    await waitFor(() => expect(onChange).toHaveBeenCalled(), WAIT);
    const [field, range] = onChange.mock.lastCall!;
    expect(field).toBe('createdAt');
    const [key, time] = Object.entries(expected)[0]!;
    const sent = (range as Record<string, Date>)[key]!;
    expect(sent.getDate()).toBe(15);
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    expect(`${pad(sent.getHours())}:${pad(sent.getMinutes())}:${pad(sent.getSeconds())}.${pad(sent.getMilliseconds(), 3)}`).toBe(time);
  });

  it('a text filter says it matches what contains the text', () => {
    const onChange = renderInput({ field: 'name', operator: 'like', label: 'Nombre', permission: null }, entities.bot.fields[0], undefined);
    const input = screen.getByRole('textbox', { name: 'Nombre' });
    expect(input).toHaveAttribute('placeholder', 'contiene');
    fireEvent.change(input, { target: { value: 'ayu' } });
    expect(onChange).toHaveBeenLastCalledWith('name', 'ayu');
  });
});

describe('the filter bar in the address', () => {
  function openAt(search: string) {
    window.history.replaceState(null, '', `/crud/bottracestatus${search}`);
    const entityClient = { paginate: vi.fn(async (_query: { filters?: SentFilter[] }) => ({ items: [], total: 0 })) };
    render(
      <RuntimeHarness services={{ entityClients: { bottracestatus: entityClient }, forms: { bottracestatus: async () => ({ schema: {}, uiSchema: {}, validateFns: {} }) } }}>
        <CrudPage model={entities.bottracestatus} />
      </RuntimeHarness>,
    );
    return entityClient;
  }
  const sent = (entityClient: ReturnType<typeof openAt>) => (entityClient.paginate.mock.lastCall?.[0].filters ?? [])
    .filter((filter) => filter.value !== undefined)
    .map((filter) => [filter.field, filter.operator, filter.value instanceof Date ? filter.value.toISOString() : filter.value]);

  it('a shared link filters the list: contains and a date range, read back into the bar', async () => {
    const entityClient = openAt('?filter.name=resp&filter.createdAt.gte=2026-01-01T00:00:00.000Z&filter.createdAt.lte=2026-01-31T00:00:00.000Z');
    await waitFor(() => expect(entityClient.paginate).toHaveBeenCalled(), WAIT);
    expect(sent(entityClient)).toEqual([
      ['name', 'like', 'resp'],
      ['createdAt', 'gte', '2026-01-01T00:00:00.000Z'],
      ['createdAt', 'lte', '2026-01-31T00:00:00.000Z'],
    ]);
    expect(screen.getByRole('textbox', { name: 'Nombre' })).toHaveValue('resp');
    // Unchanged state leaves the address saying what the link said (URL-encoded the same).
    expect([...new URLSearchParams(window.location.search)]).toEqual([
      ['filter.name', 'resp'], ['filter.createdAt.gte', '2026-01-01T00:00:00.000Z'], ['filter.createdAt.lte', '2026-01-31T00:00:00.000Z'],
    ]);
  }, 20_000);

  it('typing in the bar writes the address and queries again; clearing takes it out', async () => {
    const entityClient = openAt('?filter.createdAt.lte=2026-01-31T00:00:00.000Z');
    const name = await screen.findByRole('textbox', { name: 'Nombre' }, WAIT);
    fireEvent.change(name, { target: { value: 'ok' } });
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('filter.name')).toBe('ok'), WAIT);
    expect(new URLSearchParams(window.location.search).get('filter.createdAt.lte')).toBe('2026-01-31T00:00:00.000Z');
    await waitFor(() => expect(sent(entityClient)).toEqual([['name', 'like', 'ok'], ['createdAt', 'lte', '2026-01-31T00:00:00.000Z']]), WAIT);
    fireEvent.change(name, { target: { value: '' } });
    await waitFor(() => expect([...new URLSearchParams(window.location.search)]).toEqual([['filter.createdAt.lte', '2026-01-31T00:00:00.000Z']]), WAIT);
  }, 20_000);
});

describe('enum filters', () => {
  const enumField = { ...entities.bot.fields[0], name: 'kind', type: 'enum', label: 'Tipo', ref: null, values: ['a', 'b', 'c'], valueLabels: null } as FieldModel;

  it('eq is one choice', () => {
    renderInput({ field: 'kind', operator: 'eq', label: 'Tipo', permission: null }, enumField, 'b');
    expect(document.querySelector('input.mantine-Select-input')).toHaveValue('b');
    expect(document.querySelector('.mantine-MultiSelect-pill')).toBeNull();
  });

  it.each(['in', 'nin'] as const)('%s holds several values', (operator) => {
    renderInput({ field: 'kind', operator, label: 'Tipo', permission: null }, enumField, ['a', 'c']);
    // A multi-select: each chosen value is a pill.
    const pills = [...document.querySelectorAll('.mantine-MultiSelect-pill .mantine-Pill-label')].map((pill) => pill.textContent);
    expect(pills).toEqual(['a', 'c']);
  });
});
