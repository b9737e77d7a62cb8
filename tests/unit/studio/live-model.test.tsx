// The console's live model (src/app/live-model.ts): what GET /api/live-model says changed since the
// build is overlaid on the built model — models, entity clients, forms without precompiled validators,
// the menu (an icon the build lacks shown as a generic one) and the texts — and nothing changes
// when nothing did.
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { installBrowserShims } from '../runtime/runtime-test-harness.tsx';
import { applyLiveModel, useLiveServices, useMenuGroups, type LiveModelChanges } from '../../../src/app/live-model.ts';
import { services } from '../../../src/app/services.ts';
import { i18n } from '../../../src/app/i18n.ts';
import { menuGroups } from '../../../src/generated/menu.ts';
import { entities } from '../../../src/generated/entities.ts';
import { EntityClient } from '../../../runtime/clients/entity-client.ts';
import type { ClientEntityModel } from '../../../runtime/model/client-entity-model.ts';

installBrowserShims();

function faqItem(): ClientEntityModel {
  const model = structuredClone(entities.contact) as unknown as ClientEntityModel & Record<string, unknown>;
  return { ...model, name: 'faqItem', label: 'entity.faqItem.label', route: { ...model.route!, path: '/crud/faq-item' } } as ClientEntityModel;
}

describe('the console overlays the live model on the built one', () => {
  it('nothing changed: the built services and menu stay, same objects', () => {
    const { result } = renderHook(() => ({ services: useLiveServices(), menu: useMenuGroups() }));
    act(() => applyLiveModel({ changed: {}, menu: null, texts: null }));
    expect(result.current.services).toBe(services);
    expect(result.current.menu).toBe(menuGroups);
  });

  it('a new entity and a changed one: models, entity clients, forms, menu (unknown icon replaced) and texts', async () => {
    const { result } = renderHook(() => ({ services: useLiveServices(), menu: useMenuGroups() }));
    const contact = { ...structuredClone(entities.contact), fields: [...entities.contact.fields, { ...entities.contact.fields[0]!, name: 'website' }] } as unknown as ClientEntityModel;
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const uiSchema = { 'ui:order': ['name', '*'] };
    const knowledge = menuGroups.find((group) => group.group === 'knowledge')!;
    const changes: LiveModelChanges = {
      changed: { faqItem: { model: faqItem(), schema, uiSchema }, contact: { model: contact, schema, uiSchema } },
      menu: [...menuGroups.filter((group) => group !== knowledge), { ...knowledge, items: [...knowledge.items, { entity: 'faqItem' as never, label: 'entity.faqItem.plural', icon: 'not-in-this-build', path: '/crud/faq-item', permission: 'faqItem:manage' }] }],
      texts: { es: { entity: { faqItem: { plural: 'Preguntas frecuentes' } } }, en: { entity: { faqItem: { plural: 'FAQ items' } } } },
    };
    act(() => applyLiveModel(changes));

    const live = result.current.services;
    expect(live).not.toBe(services);
    expect(live.entities.faqItem!.route!.path).toBe('/crud/faq-item');
    expect(live.entities.contact!.fields.map((field) => field.name)).toContain('website');
    // The built ones are untouched, and the others are the built objects.
    expect(services.entities.faqItem).toBeUndefined();
    expect(live.entities.bot).toBe(services.entities.bot);
    expect(live.entityClients.faqItem).toBeInstanceOf(EntityClient);
    expect((live.entityClients.faqItem as EntityClient<Record<string, unknown>, Record<string, unknown>>).entity.name).toBe('faqItem');
    await expect(live.forms.faqItem!()).resolves.toEqual({ schema, uiSchema, validateFns: {} });
    const item = result.current.menu.flatMap((group) => group.items).find((entry) => entry.path === '/crud/faq-item');
    expect(item?.icon).toBe('file-text');
    expect(i18n.getFixedT('es')('entity.faqItem.plural')).toBe('Preguntas frecuentes');
    expect(i18n.getFixedT('en')('entity.faqItem.plural')).toBe('FAQ items');
  });
});
