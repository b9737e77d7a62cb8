import { useSyncExternalStore } from 'react';
import type { RuntimeServices } from '../../runtime/context/runtime-context.tsx';
import { menuGroups as builtMenu, type MenuGroup } from '../generated/menu.ts';
import { MENU_ICONS } from '../home/menu-icons.ts';
import { restApi } from '../session/api-client.ts';
import { i18n } from './i18n.ts';
import { services as builtServices, servicesWith, type LiveEntity } from './services.ts';

/** GET /api/live-model (server/studio/live-model-route.ts). */
export interface LiveModelChanges {
  changed: Record<string, LiveEntity>;
  menu: MenuGroup[] | null;
  texts: Record<string, Record<string, unknown>> | null;
}

/** A menu icon this build does not carry (any Tabler icon passes the generator) shows as this one. */
const FALLBACK_ICON = 'file-text';

interface LiveState {
  services: RuntimeServices;
  menu: readonly MenuGroup[];
}

/**
 * The model the console renders: the one built into it, overlaid with the entities the server
 * serves differently since (a schema studio save applied live under `npm start`, README.md
 * "Schema studio"). The built console is static, so what changed comes from the server at run
 * time, as Directus and Strapi serve their schema: models, form and UI schemas, the menu and the
 * texts. Empty in every other case, so the built model is used as it is.
 */
let state: LiveState = { services: builtServices, menu: builtMenu };
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function applyLiveModel(changes: LiveModelChanges): void {
  if (Object.keys(changes.changed).length === 0) return;
  for (const [language, tree] of Object.entries(changes.texts ?? {})) i18n.addResourceBundle(language, 'translation', tree, true, true);
  const menu = (changes.menu ?? builtMenu).map((group) => ({
    ...group,
    items: group.items.map((item) => (item.icon in MENU_ICONS ? item : { ...item, icon: FALLBACK_ICON })),
  }));
  state = { services: servicesWith(changes.changed), menu };
  for (const listener of listeners) listener();
}

/** Asks the server what changed and applies it (the studio calls it once a save is applied). */
export async function refreshLiveModel(): Promise<void> {
  applyLiveModel(await restApi.call<LiveModelChanges>({ method: 'GET', path: '/api/live-model' }));
}

let first: Promise<void> | null = null;
/** The first answer of this page load (a failure keeps the built model: the console still works). */
export function liveModelLoaded(): Promise<void> {
  first ??= refreshLiveModel().catch((error: unknown) => console.warn('live model unavailable, using the built one', error));
  return first;
}

export function useLiveServices(): RuntimeServices {
  return useSyncExternalStore(subscribe, () => state.services);
}

export function useMenuGroups(): readonly MenuGroup[] {
  return useSyncExternalStore(subscribe, () => state.menu);
}
