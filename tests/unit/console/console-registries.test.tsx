import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import { entities } from '../../../src/generated/entities.ts';
import { manifestIcons } from '../../../src/generated/icons.ts';
import { overrides } from '../../../src/app/overrides.ts';
import { formFields, formWidgets } from '../../../runtime/form/form-registry.ts';
import { MENU_ICONS } from '../../../src/home/menu-icons.ts';
import { featureTiles } from '../../../src/home/feature-tiles.ts';
import { EntityErrorBoundary } from '../../../runtime/errors/entity-error-boundary.tsx';
import en from '../../../locales/en.json' with { type: 'json' };
import { installBrowserShims } from '../runtime/runtime-test-harness.tsx';

installBrowserShims();

// The console's hand-written registries (override handlers, cells, widgets, icons) must agree with
// what the generated models name: a mismatch would make a page throw when it renders.
const models = Object.values(entities);
const SCHEMAS = path.resolve(import.meta.dirname, '../../../src/generated/schemas');

describe('the console registries agree with the models', () => {
  it('every row action of every entity has a handler, and every handler a row action', () => {
    for (const model of models) {
      const handlers = overrides[model.name]?.rowActions ?? {};
      expect(Object.keys(handlers).sort(), model.name).toEqual(model.rowActions.map((action) => action.name).sort());
    }
  });

  it('overrides name existing entities, cells name columns, field widgets name fields', () => {
    for (const [entity, override] of Object.entries(overrides)) {
      const model = entities[entity as keyof typeof entities];
      expect(model, `override for unknown entity "${entity}"`).toBeDefined();
      const fields = model.fields.map((field) => field.name);
      for (const cell of Object.keys(override.cells ?? {})) expect(model.table.columns, `${entity} cell ${cell}`).toContain(cell);
      for (const widget of Object.keys(override.fieldWidgets ?? {})) expect(fields, `${entity} widget ${widget}`).toContain(widget);
    }
  });

  it('every ui:widget and ui:field the generated UI schemas use is registered in the form', () => {
    const used = new Set<string>();
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'ui:widget' || key === 'ui:field') && typeof value === 'string') used.add(`${key}=${value}`);
        else walk(value);
      }
    };
    for (const file of readdirSync(SCHEMAS).filter((name) => name.endsWith('.ui.json'))) walk(JSON.parse(readFileSync(path.join(SCHEMAS, file), 'utf8')));
    expect(used.size).toBeGreaterThan(3);
    for (const entry of used) {
      const [kind, name] = entry.split('=');
      const registry: Record<string, unknown> = kind === 'ui:widget' ? { ...formWidgets, hidden: true } : formFields;
      expect(registry[name], entry).toBeDefined();
    }
  });

  it('every icon a model or a gallery tile names has a component', () => {
    for (const model of models) {
      if (model.menu) expect(MENU_ICONS[model.menu.icon], model.menu.icon).toBeDefined();
      for (const action of model.rowActions) expect(manifestIcons[action.icon], action.icon).toBeDefined();
    }
    for (const tile of featureTiles) expect(MENU_ICONS[tile.icon], tile.icon).toBeDefined();
  });
});

describe('a screen that throws', () => {
  const i18n = i18next.createInstance();
  void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false }, initAsync: false });
  function Broken({ what }: { what: string }): never {
    throw new Error(`Unknown menu icon "${what}"`);
  }
  const view = (children: React.ReactNode) => render(
    <MantineProvider env="test"><I18nextProvider i18n={i18n}>{children}</I18nextProvider></MantineProvider>,
  );

  it.each([['contact', 'hlep', false], ['faq', 'nope', true]] as const)('shows a panel naming %s, and its siblings still render', (entity, icon, compact) => {
    const quiet = console.error;
    console.error = () => {};
    try {
      view(<>
        <EntityErrorBoundary entity={entity} compact={compact}><Broken what={icon} /></EntityErrorBoundary>
        <EntityErrorBoundary entity="bot"><p>bot still here</p></EntityErrorBoundary>
      </>);
    } finally {
      console.error = quiet;
    }
    const panel = screen.getByTestId(`entity-error-${entity}`);
    expect(panel).toHaveTextContent(`"${entity}" could not be shown`);
    expect(panel).toHaveTextContent(`Unknown menu icon "${icon}"`);
    expect(screen.getByText('bot still here')).toBeInTheDocument();
    expect(screen.queryByTestId('entity-error-bot')).toBeNull();
  });
});
