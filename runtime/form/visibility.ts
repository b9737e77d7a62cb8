import type { Condition } from '../model/client-entity-model.ts';

type Data = Record<string, unknown>;
type UiSchema = Record<string, unknown>;

/** A visibleWhen condition: shown when the other field's value is in `in`, or not in `notIn`. */
export function isConditionMet(condition: Condition | null | undefined, data: Data | null | undefined): boolean {
  if (!condition) return true;
  const value = (data ?? {})[condition.field] as string | number | boolean | undefined;
  if (condition.in) return value !== undefined && value !== null && condition.in.includes(value);
  if (condition.notIn) return value === undefined || value === null || !condition.notIn.includes(value);
  return true;
}

interface SectionOptions {
  name: string;
  label: string;
  permission: string | null;
  visibleWhen: Condition | null;
}

export function uiOptionsOf(uiSchema: UiSchema | undefined): Record<string, unknown> {
  return ((uiSchema?.['ui:options'] as Record<string, unknown> | undefined) ?? {});
}

export function sectionsOf(uiSchema: UiSchema, kind: 'tabs' | 'menus'): SectionOptions[] {
  return (uiOptionsOf(uiSchema)[kind] as SectionOptions[] | undefined) ?? [];
}

/**
 * Root fields hidden by their own visibleWhen or by their tab's / menu's: the form neither shows
 * them nor keeps their values (docs/product-rules.md#states knowledge source: chunk type hides the text tabs).
 */
export function hiddenRootFields(uiSchema: UiSchema, fieldNames: readonly string[], data: Data): string[] {
  const sections = new Map([...sectionsOf(uiSchema, 'tabs'), ...sectionsOf(uiSchema, 'menus')].map((s) => [s.name, s]));
  const hidden: string[] = [];
  for (const name of fieldNames) {
    const options = uiOptionsOf(uiSchema[name] as UiSchema | undefined);
    const section = sections.get((options.tab as string) ?? (options.menu as string) ?? '');
    if (!isConditionMet(options.visibleWhen as Condition | null, data) || (section && !isConditionMet(section.visibleWhen, data))) {
      hidden.push(name);
    }
  }
  return hidden;
}

/** The data without hidden fields' values; the same object when nothing needs removing. */
export function withoutFields(data: Data, names: readonly string[]): Data {
  if (!names.some((name) => name in data)) return data;
  const copy = { ...data };
  for (const name of names) delete copy[name];
  return copy;
}
