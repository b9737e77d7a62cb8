import type { MenuGroup } from '../../generated/menu.ts';

/** One step of the trail: a locale key, and where it leads (none: the current page or a group). */
export interface Crumb {
  label: string;
  path: string | null;
}

/** Hand-written screens outside the menu: their trail after Inicio, by exact path or prefix. */
const SCREEN_TRAILS: ReadonlyArray<{ match: (path: string) => boolean; trail: Crumb[] }> = [
  { match: (path) => path === '/profile', trail: [{ label: 'app.profile', path: null }] },
  { match: (path) => path === '/password/change', trail: [{ label: 'app.profile', path: '/profile' }, { label: 'password.changeTitle', path: null }] },
  { match: (path) => path === '/jobs', trail: [{ label: 'jobs.open', path: null }] },
];

/** Pages that open one record of a menu entity: the trail goes through that entity's list. */
const RECORD_PAGES: ReadonlyArray<{ prefix: string; entity: string; label: string }> = [{ prefix: '/knowledge/', entity: 'knowledge', label: 'entity.knowledge.label' }];

/**
 * The breadcrumb trail of a console path (issue 27 item 5): Inicio, then the menu group and the
 * page (an entity's list, a hand-written screen such as Analítica), or the screen's own trail.
 * Built from the same generated menu as the gallery and the sidebar, so a new entity gets its
 * trail with no code. Labels only: who may open a page is the route's concern.
 */
export function breadcrumbTrail(pathname: string, groups: readonly MenuGroup[], extraPages: ReadonlyArray<{ group: MenuGroup['group']; label: string; path: string }> = []): Crumb[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const home: Crumb = { label: 'app.home', path: '/' };
  if (path === '/' || path === '/home') return [{ ...home, path: null }];
  for (const group of groups) {
    const pages = [...group.items.map((item) => ({ label: item.label, path: item.path })), ...extraPages.filter((page) => page.group === group.group)];
    const page = pages.find((candidate) => candidate.path === path);
    if (page) return [home, { label: group.label, path: null }, { label: page.label, path: null }];
    for (const record of RECORD_PAGES) {
      const item = group.items.find((candidate) => candidate.entity === record.entity);
      if (item && path.startsWith(record.prefix)) return [home, { label: group.label, path: null }, { label: item.label, path: item.path }, { label: record.label, path: null }];
    }
  }
  const screen = SCREEN_TRAILS.find((candidate) => candidate.match(path));
  return screen ? [home, ...screen.trail] : [home, { label: 'app.notFound', path: null }];
}
