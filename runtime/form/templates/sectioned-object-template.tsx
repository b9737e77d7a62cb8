import { useState } from 'react';
import { Grid, NavLink, Stack, Tabs } from '@mantine/core';
import type { ObjectFieldTemplateProps } from '@rjsf/utils';
// Templates only: the theme's widget index pulls dayjs plugins through an ESM-incompatible path.
import MantineTemplates from '@rjsf/mantine/lib/templates/index.js';
import { useTranslation } from 'react-i18next';
import { hiddenRootFields, isConditionMet, sectionsOf, uiOptionsOf } from '../visibility.ts';
import type { EntityFormContext } from '../entity-form-context.ts';

const NestedObjectTemplate = MantineTemplates.ObjectFieldTemplate!;

/** docs/product-rules.md#constants: form side menu max height. */
const MENU_MAX_HEIGHT = 300;

/**
 * The root object lays fields out in the model's tabs or side menus (ui:options.tab / menu);
 * fields without one render above. visibleWhen hides fields and whole sections. Nested objects
 * keep the theme's template.
 */
export function SectionedObjectTemplate(props: ObjectFieldTemplateProps) {
  if (props.fieldPathId.$id !== 'root') return <NestedObjectTemplate {...props} />;
  return <RootSections {...props} />;
}

function RootSections(props: ObjectFieldTemplateProps) {
  const { t } = useTranslation();
  const context = props.registry.formContext as EntityFormContext;
  const data = (props.formData ?? {}) as Record<string, unknown>;
  const uiSchema = props.uiSchema ?? {};
  const hidden = new Set(hiddenRootFields(uiSchema, props.properties.map((p) => p.name), data));
  const visible = props.properties.filter((property) => !property.hidden && !hidden.has(property.name));
  const sectionOf = (name: string, kind: 'tab' | 'menu') => uiOptionsOf(uiSchema[name])[kind] as string | undefined;

  const tabs = sectionsOf(uiSchema, 'tabs').filter((s) => (!s.permission || context.can(s.permission)) && isConditionMet(s.visibleWhen, data));
  const menus = sectionsOf(uiSchema, 'menus').filter((s) => (!s.permission || context.can(s.permission)) && isConditionMet(s.visibleWhen, data));
  const free = visible.filter((property) => !sectionOf(property.name, 'tab') && !sectionOf(property.name, 'menu'));
  const [activeTab, setActiveTab] = useState<string | null>(null);
  const [activeMenu, setActiveMenu] = useState<string | null>(null);
  // A hidden section cannot stay selected (knowledge source "chunk" forces the Chunks tab).
  const currentTab = tabs.find((tab) => tab.name === activeTab)?.name ?? tabs[0]?.name ?? null;
  const currentMenu = menus.find((menu) => menu.name === activeMenu)?.name ?? menus[0]?.name ?? null;

  return (
    <Stack gap="sm">
      {free.map((property) => (
        <div key={property.name}>{property.content}</div>
      ))}
      {tabs.length > 0 && (
        <Tabs value={currentTab} onChange={setActiveTab} keepMounted={false}>
          <Tabs.List>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.name} value={tab.name}>
                {t(tab.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab.name} value={tab.name} pt="sm">
              <Stack gap="sm">
                {visible.filter((p) => sectionOf(p.name, 'tab') === tab.name).map((p) => (
                  <div key={p.name}>{p.content}</div>
                ))}
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
      {menus.length > 0 && (
        <Grid>
          <Grid.Col span={{ base: 12, sm: 3 }} mah={MENU_MAX_HEIGHT} style={{ overflowY: 'auto' }}>
            {menus.map((menu) => (
              <NavLink key={menu.name} label={t(menu.label)} active={menu.name === currentMenu} onClick={() => setActiveMenu(menu.name)} />
            ))}
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 9 }}>
            <Stack gap="sm">
              {visible.filter((p) => sectionOf(p.name, 'menu') === currentMenu).map((p) => (
                <div key={p.name}>{p.content}</div>
              ))}
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
