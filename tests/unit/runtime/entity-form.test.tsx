import { createRef } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EntityForm, type EntityFormHandle } from '../../../runtime/form/entity-form.tsx';
import type { ClientEntityModel, FieldModel } from '../../../runtime/model/client-entity-model.ts';
import { entities } from '../../../src/generated/entities.ts';
import { compileValidateFns } from './compile-validate-fns.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);

const base = entities.bottracestatus.fields[0];
function field(name: string, type: FieldModel['type'], extra: Partial<FieldModel> = {}): FieldModel {
  return { ...base, name, type, label: `field.test.${name}`, hint: null, ref: null, values: null, valueLabels: null, objectFields: null, ...extra };
}

/** A model + schemas exercising every field type of docs/product-rules.md#entities. */
const model: ClientEntityModel = {
  ...entities.bottracestatus,
  name: 'widgetTest',
  fields: [
    field('title', 'string', { validation: { ...base.validation, required: true } }),
    field('notes', 'longString'),
    field('secret', 'password'),
    field('kind', 'enum', { values: ['a', 'b'], valueLabels: { a: 'common.yes', b: 'common.no' } }),
    field('count', 'number'),
    field('enabled', 'boolean'),
    field('when', 'date'),
    field('owner', 'ref', { ref: { entity: 'person', display: 'name', populate: [], clearable: true, onDelete: 'restrict' } }),
    field('friends', 'array.ref', { ref: { entity: 'person', display: 'name', populate: [], clearable: true, onDelete: 'restrict' } }),
    field('tags', 'array.string'),
    field('picture', 'file'),
    field('document', 'fullFile'),
    field('items', 'array.object', { objectFields: [field('label', 'string')] }),
  ],
};
const schema = {
  $id: 'widgetTest.form',
  type: 'object',
  properties: {
    title: { type: 'string', title: 'field.test.title', maxLength: 5, 'x-messages': { required: 'validation.required', maxLength: 'validation.maxLength' } },
    notes: { type: ['string', 'null'], title: 'field.test.notes' },
    secret: { type: 'string', title: 'field.test.secret' },
    kind: { type: 'string', enum: ['a', 'b'], title: 'field.test.kind' },
    count: { type: 'number', title: 'field.test.count' },
    enabled: { type: 'boolean', title: 'field.test.enabled' },
    when: { type: ['string', 'null'], format: 'date-time', title: 'field.test.when' },
    owner: { type: ['string', 'null'], title: 'field.test.owner' },
    friends: { type: 'array', items: { type: 'string' }, title: 'field.test.friends', default: [] },
    tags: { type: 'array', items: { type: 'string' }, title: 'field.test.tags', default: [] },
    picture: { type: ['string', 'null'], title: 'field.test.picture' },
    document: { type: ['object', 'null'], properties: { url: { type: 'string' }, filename: { type: 'string' }, filepath: { type: 'string' }, size: { type: 'integer' }, mimetype: { type: 'string' } }, title: 'field.test.document' },
    items: { type: 'array', items: { type: 'object', properties: { label: { type: 'string', title: 'field.test.label' } } }, title: 'field.test.items', default: [] },
  },
  required: ['title'],
  additionalProperties: false,
};
const validateFns = compileValidateFns(schema);
const ref = { entity: 'person', display: 'name', populate: [], clearable: true, onDelete: 'restrict' };
const uiSchema = {
  'ui:options': { tabs: [], menus: [] },
  notes: { 'ui:widget': 'textarea', 'ui:options': { fieldType: 'longString', rows: 7 } },
  secret: { 'ui:widget': 'password', 'ui:options': { fieldType: 'password' } },
  kind: { 'ui:widget': 'select', 'ui:options': { fieldType: 'enum', valueLabels: { a: 'common.yes', b: 'common.no' } } },
  enabled: { 'ui:widget': 'checkbox', 'ui:options': { fieldType: 'boolean' } },
  when: { 'ui:widget': 'date', 'ui:options': { fieldType: 'date' } },
  owner: { 'ui:widget': 'ref', 'ui:options': { fieldType: 'ref', ref } },
  friends: { 'ui:widget': 'refMulti', 'ui:options': { fieldType: 'array.ref', ref } },
  tags: { 'ui:options': { fieldType: 'array.string' } },
  picture: { 'ui:widget': 'file', 'ui:options': { fieldType: 'file' } },
  document: { 'ui:field': 'fullFile', 'ui:options': { fieldType: 'fullFile' } },
  items: { 'ui:options': { fieldType: 'array.object' }, items: { label: { 'ui:options': { fieldType: 'string' } } } },
};

const people = [{ _id: 'p1', name: 'Ada' }, { _id: 'p2', name: 'Grace' }];
const personClient = {
  search: vi.fn(async ({ search }: { search: string }) => people.filter((p) => p.name.toLowerCase().includes(search.toLowerCase()))),
  findByIds: vi.fn(async ({ ids }: { ids: string[] }) => people.filter((p) => ids.includes(p._id))),
};

function renderForm(initialData: Record<string, unknown> = {}, extra: { operation?: 'create' | 'edit' | 'view'; fieldErrors?: Record<string, string[]> } = {}) {
  const handle = createRef<EntityFormHandle>();
  const onChange = vi.fn();
  render(
    <RuntimeHarness services={{ entityClients: { person: personClient } }}>
      <EntityForm model={model} schemas={{ schema, uiSchema, validateFns }} operation={extra.operation ?? 'create'} initialData={initialData} handle={handle} onChange={onChange} fieldErrors={extra.fieldErrors} />
    </RuntimeHarness>,
  );
  return { handle, onChange, last: () => onChange.mock.calls.at(-1)?.[0] as Record<string, unknown> };
}

describe('EntityForm widgets (docs/product-rules.md#entities)', () => {
  it('renders translated labels and every field type', () => {
    renderForm();
    expect(screen.getByRole('textbox', { name: /field.test.title/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'field.test.notes' })).toHaveAttribute('rows', '7');
    expect(screen.getByLabelText('field.test.secret')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('switch', { name: 'field.test.enabled' })).toBeInTheDocument();
    expect(screen.getByText('field.test.picture')).toBeInTheDocument();
    expect(screen.getByText('field.test.document')).toBeInTheDocument();
    expect(screen.getAllByText('Arrastra un archivo aquí o haz clic para elegirlo')).toHaveLength(2);
  });

  it('string, longString, password, number and boolean change the value', async () => {
    const user = userEvent.setup();
    const { last } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /field.test.title/ }), 'Hi');
    await user.type(screen.getByRole('textbox', { name: 'field.test.notes' }), 'long');
    await user.type(screen.getByLabelText('field.test.secret'), 'pw');
    await user.type(screen.getByRole('textbox', { name: 'field.test.count' }), '42');
    await user.click(screen.getByRole('switch', { name: 'field.test.enabled' }));
    expect(last()).toMatchObject({ title: 'Hi', notes: 'long', secret: 'pw', count: 42, enabled: true });
  });

  it('password toggles visibility', async () => {
    const user = userEvent.setup();
    renderForm();
    const input = screen.getByLabelText('field.test.secret');
    await user.click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    expect(input).toHaveAttribute('type', 'text');
  });

  it('enum offers translated labels and stores the value', async () => {
    const user = userEvent.setup();
    const { last } = renderForm();
    await user.click(document.getElementById('root_kind')!);
    await user.click(await screen.findByRole('option', { name: 'No' }));
    expect(last()).toMatchObject({ kind: 'b' });
  });

  it('ref searches the referenced entity\'s client and stores the _id', async () => {
    const user = userEvent.setup();
    const { last } = renderForm();
    await user.type(document.getElementById('root_owner')!, 'gra');
    await waitFor(() => expect(personClient.search).toHaveBeenCalledWith(expect.objectContaining({ search: 'gra' })));
    await user.click(await screen.findByRole('option', { name: 'Grace' }));
    expect(last()).toMatchObject({ owner: 'p2' });
  });

  it('ref shows the label of an existing id and array.ref shows chips', async () => {
    renderForm({ owner: 'p1', friends: ['p1', 'p2'] }, { operation: 'edit' });
    await waitFor(() => expect(document.getElementById('root_owner')!).toHaveValue('Ada'));
    expect((await screen.findAllByText('Grace')).length).toBeGreaterThan(0);
  });

  it('a read-only ref shows its label without searching the referenced entity', async () => {
    personClient.search.mockClear();
    renderForm({ owner: 'p1' }, { operation: 'view' });
    await waitFor(() => expect(document.getElementById('root_owner')!).toHaveValue('Ada'));
    expect(personClient.search).not.toHaveBeenCalled();
  });

  it('date stores an ISO string', async () => {
    const { last } = renderForm({ when: '2024-05-06T07:08:09.000Z' }, { operation: 'edit' });
    expect(screen.getByRole('button', { name: /field.test.when/ })).toBeInTheDocument();
    const clear = document.querySelector('[data-dates-input] + * button, button.mantine-CloseButton-root') as HTMLElement | null;
    if (clear) {
      fireEvent.click(clear);
      expect(last()?.when ?? null).toBeNull();
    }
  });

  it('array.string and array.object add and remove items', async () => {
    const user = userEvent.setup();
    const { last } = renderForm();
    const addButtons = screen.getAllByRole('button', { name: 'Añadir' });
    expect(addButtons.length).toBeGreaterThanOrEqual(2);
    await user.click(addButtons[addButtons.length - 1]);
    await user.type(await screen.findByRole('textbox', { name: 'field.test.label' }), 'x');
    expect(last()).toMatchObject({ items: [{ label: 'x' }] });
    await user.click(screen.getAllByRole('button', { name: 'Quitar' })[0]);
    expect(last()).toMatchObject({ items: [] });
  });

  it('file uploads store the url; fullFile stores the whole record', async () => {
    const { last } = renderForm();
    const file = new File(['x'], 'a.txt', { type: 'text/plain' });
    const inputs = document.querySelectorAll<HTMLInputElement>('input[type=file]');
    await act(async () => {
      fireEvent.change(inputs[0], { target: { files: [file] } });
    });
    await waitFor(() => expect(last()).toMatchObject({ picture: '/files/a.txt' }));
    await act(async () => {
      fireEvent.change(inputs[1], { target: { files: [file] } });
    });
    await waitFor(() => expect(last()).toMatchObject({ document: { url: '/files/a.txt', filename: 'a.txt' } }));
  });

  it('validation uses x-messages keys with interpolation', async () => {
    const user = userEvent.setup();
    const { handle } = renderForm();
    act(() => {
      expect(handle.current?.validate()).toBe(false);
    });
    expect((await screen.findAllByText('Campo obligatorio')).length).toBeGreaterThan(0);
    await user.type(screen.getByRole('textbox', { name: /field.test.title/ }), 'toolong');
    act(() => {
      expect(handle.current?.validate()).toBe(false);
    });
    expect((await screen.findAllByText('Debe tener como máximo 5 caracteres')).length).toBeGreaterThan(0);
  });

  it('a refused submit focuses the first field at fault; validation on blur leaves the focus where the user put it', async () => {
    const user = userEvent.setup();
    const { handle } = renderForm();
    const title = screen.getByRole('textbox', { name: /field.test.title/ });
    const count = screen.getByRole('textbox', { name: /field.test.count/ });
    await user.click(count);
    act(() => {
      expect(handle.current?.validate()).toBe(false);
    });
    await waitFor(() => expect(document.activeElement).toBe(title));
    // Blur validation (title is touched now and still empty) must not pull the focus back.
    await user.click(count);
    await user.tab();
    await screen.findAllByText('Campo obligatorio');
    expect(document.activeElement).not.toBe(title);
  });

  it('server input errors show on their fields, nested paths included', async () => {
    renderForm({ title: 'a', items: [{ label: 'x' }] }, { operation: 'edit', fieldErrors: { title: ['validation.unique'], 'items.0.label': ['validation.required'] } });
    expect((await screen.findAllByText('El valor debe ser único')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Campo obligatorio').length).toBeGreaterThan(0);
    expect(screen.getByRole('textbox', { name: /field.test.title/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'field.test.label' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('view is read-only', () => {
    renderForm({ title: 'a' }, { operation: 'view' });
    expect(screen.getByRole('textbox', { name: /field.test.title/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Añadir' })).toBeNull();
  });
});
