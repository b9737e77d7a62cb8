import { createRef } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WidgetProps } from '@rjsf/utils';
import { EntityForm, type EntityFormHandle } from '../../../runtime/form/entity-form.tsx';
import { baseFormTheme, checkWidgetNames, withFormTheme, type FormTheme, type FormThemeExtension } from '../../../runtime/form/form-theme.ts';
import { formWidgets } from '../../../runtime/form/form-registry.ts';
import type { FormSchemas } from '../../../runtime/form/prepare-form-schemas.ts';
import { entities } from '../../../src/generated/entities.ts';
import { formLoaders } from '../../../src/generated/forms.ts';
import { formTheme as appFormTheme } from '../../../src/app/form-theme.ts';
import { RuntimeHarness, installBrowserShims } from './runtime-test-harness.tsx';

beforeAll(installBrowserShims);

/** A widget the app registers, as a product would (it is no part of runtime/). */
function RatingWidget(props: WidgetProps) {
  return <input data-testid={`rating:${props.id}`} aria-label={props.label} value={(props.value as string | undefined) ?? ''} onChange={(event) => props.onChange(event.currentTarget.value)} />;
}

const model = entities.bottracestatus;
let schemas: FormSchemas;
beforeAll(async () => {
  schemas = await formLoaders.bottracestatus!();
});

function renderForm(formTheme?: FormTheme) {
  const handle = createRef<EntityFormHandle>();
  render(
    <RuntimeHarness services={formTheme ? { formTheme } : {}}>
      <EntityForm model={model} schemas={schemas} operation="create" initialData={{}} handle={handle} />
    </RuntimeHarness>,
  );
  return handle;
}

describe('form theme: the app adds a widget for a field type without touching the runtime', () => {
  it('without an extension the field types draw with their own widgets', () => {
    renderForm();
    expect(screen.queryByTestId(/^rating:/)).toBeNull();
    expect(screen.getByRole('textbox', { name: /Descripción/ }).tagName).toBe('TEXTAREA');
    expect(screen.getByRole('textbox', { name: /Nombre/ }).tagName).toBe('INPUT');
  });

  it.each<{ label: string; extension: FormThemeExtension; drawn: string; plain: string }>([
    { label: 'a type with a widget of its own (longString, a textarea)', extension: { widgets: { rating: RatingWidget }, fieldTypeWidgets: { longString: 'rating' } }, drawn: 'description', plain: 'name' },
    { label: 'a type without one (string)', extension: { widgets: { rating: RatingWidget }, fieldTypeWidgets: { string: 'rating' } }, drawn: 'name', plain: 'description' },
    { label: "the runtime's widget replaced under its own name", extension: { widgets: { textarea: RatingWidget } }, drawn: 'description', plain: 'name' },
  ])('the registered widget draws the fields of its type: $label', async ({ extension, drawn, plain }) => {
    const handle = renderForm(withFormTheme(baseFormTheme, extension));
    const input = screen.getByTestId(`rating:root_${drawn}`);
    expect(screen.queryByTestId(`rating:root_${plain}`)).toBeNull();
    // What the user types in the app's widget is the form's data.
    await userEvent.type(input, 'five');
    await waitFor(() => expect(handle.current?.getData()).toMatchObject({ [drawn]: 'five' }));
  });

  it('the console starts with a valid theme holding every runtime widget', () => {
    for (const name of Object.keys(formWidgets)) expect(appFormTheme.widgets).toHaveProperty([name]);
  });

  it('extending never changes the base theme', () => {
    const before = { ...baseFormTheme.widgets };
    withFormTheme(baseFormTheme, { widgets: { rating: RatingWidget, textarea: RatingWidget }, fieldTypeWidgets: { longString: 'rating' } });
    expect(baseFormTheme.widgets).toEqual(before);
    expect(baseFormTheme.fieldTypeWidgets).toEqual({});
  });
});

describe('form theme: a missing key fails loudly, naming it and the fix', () => {
  it.each([
    { extension: { fieldTypeWidgets: { longString: 'ratting' } }, key: 'fieldTypeWidgets.longString', name: '"ratting"', fix: "widgets: { ratting: YourWidget }" },
    { extension: { widgets: { rating: RatingWidget }, fieldTypeWidgets: { number: 'Rating' } }, key: 'fieldTypeWidgets.number', name: '"Rating"', fix: 'src/app/form-theme.ts' },
    { extension: { widgets: { rating: RatingWidget }, fieldTypeWidgets: { longText: 'rating' } }, key: '"longText"', name: 'no field type', fix: 'longString' },
  ])('$key', ({ extension, key, name, fix }) => {
    const attempt = () => withFormTheme(baseFormTheme, extension as never);
    expect(attempt).toThrow(key);
    expect(attempt).toThrow(name);
    expect(attempt).toThrow(fix);
  });

  it("a UI schema naming an unregistered widget names the entity, the field's path and the fix", () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, count: { type: 'number' }, items: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } } },
    } as const;
    const uiSchema = { title: { 'ui:widget': 'textarea' }, items: { items: { label: { 'ui:widget': 'colour' } } } };
    expect(() => checkWidgetNames(uiSchema, schema, baseFormTheme, 'book')).toThrow('The form of "book" asks for the widget "colour" at items.items.label');
    expect(() => checkWidgetNames(uiSchema, schema, baseFormTheme, 'book')).toThrow('withFormTheme(baseFormTheme, { widgets: { colour: YourWidget } })');
    expect(() => checkWidgetNames({ count: { 'ui:widget': 'stars' } }, schema, baseFormTheme, 'book')).toThrow('"stars" at count');
    // rjsf's own widgets and its names for them (hidden, text, ...) are every theme's.
    expect(() => checkWidgetNames({ title: { 'ui:widget': 'hidden' }, count: { 'ui:widget': 'updown' } }, schema, baseFormTheme, 'book')).not.toThrow();
    expect(() => checkWidgetNames(uiSchema, schema, withFormTheme(baseFormTheme, { widgets: { colour: RatingWidget } }), 'book')).not.toThrow();
  });

  it('a form whose generated UI schema names an unregistered widget refuses to render, saying which', async () => {
    // The bot's generated UI schema draws its knowledge base with the runtime's "ref" widget.
    const { ref: _dropped, ...widgets } = baseFormTheme.widgets;
    const botSchemas = await formLoaders.bot!();
    const original = console.error;
    console.error = () => undefined;
    try {
      expect(() =>
        render(
          <RuntimeHarness services={{ formTheme: { ...baseFormTheme, widgets } }}>
            <EntityForm model={entities.bot} schemas={botSchemas} operation="create" initialData={{}} />
          </RuntimeHarness>,
        ),
      ).toThrow('The form of "bot" asks for the widget "ref" at knowledge');
    } finally {
      console.error = original;
    }
  });
});
