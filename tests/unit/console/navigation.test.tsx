// Issue 27 item 5: the sidebar (same groups and rule as the gallery), breadcrumbs on every page and
// the Ctrl+K command palette, rendered in jsdom with the generated menu and entity models.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import { installBrowserShims, RuntimeHarness } from '../runtime/runtime-test-harness.tsx';
import { i18n, loadAllTexts } from '../../../src/app/i18n.ts';
import { ConsoleFrame } from '../../../src/app/navigation/console-frame.tsx';
import { breadcrumbTrail } from '../../../src/app/navigation/breadcrumb-trail.ts';
import { fold, matchPages, recordTitle } from '../../../src/app/navigation/palette-entries.ts';
import { palette } from '../../../src/app/navigation/palette-store.ts';
import { menuGroups } from '../../../src/generated/menu.ts';
import { entities } from '../../../src/generated/entities.ts';
import { featureTiles } from '../../../src/home/feature-tiles.ts';
import { visibleMenu } from '../../../src/home/visible-menu.ts';
import { sessionStore } from '../../../src/session/session-store.ts';
import { entityAccess } from '../../../src/generated/entity-access.ts';

const EVERY_PERMISSION = Object.values(entityAccess).flatMap((access) => Object.values(access.permissions));

installBrowserShims();
await loadAllTexts();

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

const findBots = vi.fn(async (params: { search?: string }) => (params.search === 'sopo' ? [{ _id: 'b1', name: 'Soporte web' }] : []));

function renderAt(path: string, permissions: string[]) {
  sessionStore.setUser({ id: 'u1', username: 'ana', role: { _id: 'r1', name: 'R', permissions } });
  return render(
    <RuntimeHarness services={{ entities, entityClients: { bot: { find: findBots } } as never }}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route element={<ConsoleFrame />}>
              <Route path="*" element={<Where />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </RuntimeHarness>,
  );
}

beforeEach(() => {
  localStorage.clear();
  findBots.mockClear();
});
afterEach(() => {
  act(() => palette.close());
  sessionStore.setUser(null);
});

describe('sidebar', () => {
  const variants: string[][] = [['bot:manage', 'contact:view'], ['bottrace:view'], ['user:manage', 'tenant:view', 'knowledge:view'], ['userApiKey:myView'], EVERY_PERMISSION];
  it.each(variants.map((permissions) => [permissions.length > 6 ? 'every permission' : permissions.join(' '), permissions] as const))('shows the gallery\'s groups and pages for %s, the current one marked', (_label, permissions) => {
    renderAt('/crud/bot', permissions);
    const nav = screen.getByRole('navigation', { name: 'Navegación principal' });
    const can = (permission: string) => permissions.includes(permission);
    const expected = visibleMenu(menuGroups, can, entities, featureTiles);
    const shown = within(nav).queryAllByRole('group').map((group) => group.getAttribute('data-testid'));
    expect(shown).toEqual(expected.map((group) => `sidebar-group-${group.group}`));
    for (const group of expected) for (const tile of group.tiles) expect(within(nav).getByTestId(`sidebar-item-${tile.entity ?? tile.path.slice(1)}`)).toHaveAttribute('href', tile.path);
    if (!can('user:manage')) expect(within(nav).queryByTestId('sidebar-group-admin')).toBeNull();
    const bots = within(nav).queryByTestId('sidebar-item-bot');
    if (bots) expect(bots).toHaveAttribute('aria-current', 'page');
  });

  it('collapses to icons that keep their names, and stays collapsed on the next visit', () => {
    const view = renderAt('/', ['bot:manage']);
    const toggle = screen.getByTestId('sidebar-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('sidebar-item-bot')).toHaveTextContent('Bots');
    fireEvent.click(toggle);
    expect(screen.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('sidebar-item-bot')).not.toHaveTextContent('Bots');
    expect(screen.getByTestId('sidebar-item-bot')).toHaveAccessibleName('Bots');
    view.unmount();
    renderAt('/', ['bot:manage']);
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  });
});

describe('breadcrumbs', () => {
  it('every menu page, Analítica and the account pages have a trail that starts at Inicio', () => {
    const pages = [...menuGroups.flatMap((group) => group.items.map((item) => item.path)), ...featureTiles.map((tile) => tile.path), '/profile', '/password/change', '/jobs', '/knowledge/abc'];
    for (const path of pages) {
      const trail = breadcrumbTrail(path, menuGroups, featureTiles);
      expect(trail[0], path).toEqual({ label: 'app.home', path: '/' });
      expect(trail.length, path).toBeGreaterThanOrEqual(2);
      expect(trail.at(-1)!.path, path).toBeNull();
      for (const crumb of trail) expect(i18n.exists(crumb.label), `${path}: ${crumb.label}`).toBe(true);
    }
    expect(breadcrumbTrail('/', menuGroups)).toEqual([{ label: 'app.home', path: null }]);
    expect(breadcrumbTrail('/no/such/page', menuGroups).at(-1)).toEqual({ label: 'app.notFound', path: null });
    expect(breadcrumbTrail('/knowledge/k1', menuGroups).map((crumb) => crumb.path)).toEqual(['/', null, '/crud/knowledge', null]);
  });

  it('shows the trail above the page, Inicio as a link, the page as current', () => {
    renderAt('/crud/bot/', ['bot:manage']);
    const trail = screen.getByRole('navigation', { name: 'Ruta de navegación' });
    expect(within(trail).getByRole('link', { name: 'Inicio' })).toHaveAttribute('href', '/');
    expect(within(trail).getByText('Bots')).toHaveAttribute('aria-current', 'page');
    expect(trail).toHaveTextContent(/Inicio.*Bots/);
  });
});

describe('command palette', () => {
  it('folds accents and case; matches every typed word; names records by their naming field', () => {
    expect(fold('Analítica')).toBe('analitica');
    const pages = [{ key: 'a', label: 'menu.analytics', group: 'menu.group.bot', path: '/analytics', icon: 'chart-bar', entity: null }];
    const t = (key: string) => i18n.t(key);
    expect(matchPages(pages, 'ANALIT', t)).toHaveLength(1);
    expect(matchPages(pages, 'analit bot', t)).toHaveLength(1);
    expect(matchPages(pages, 'analit contactos', t)).toHaveLength(0);
    expect(recordTitle({ _id: 'x', username: 'ana' })).toBe('ana');
    expect(recordTitle({ _id: 'x' })).toBe('x');
    expect(recordTitle({ _id: 'x', question: 'q'.repeat(200) })).toHaveLength(80);
  });

  it('opens on Ctrl+K, jumps to a page the user may open, never to one it may not', async () => {
    renderAt('/', ['bot:manage', 'bottrace:view']);
    fireEvent.keyDown(document.documentElement, { key: 'k', code: 'KeyK', ctrlKey: true });
    const input = await screen.findByTestId('palette-input');
    fireEvent.change(input, { target: { value: 'analitica' } });
    fireEvent.click(await screen.findByTestId('palette-page-/analytics'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/analytics'));
    act(() => palette.open());
    fireEvent.change(await screen.findByTestId('palette-input'), { target: { value: 'usuarios' } });
    expect(await screen.findByText('Nada coincide con lo escrito')).toBeInTheDocument();
  });

  it('finds records by the entities\' search and opens one in its page', async () => {
    renderAt('/', ['bot:manage']);
    act(() => palette.open());
    fireEvent.change(await screen.findByTestId('palette-input'), { target: { value: 'sopo' } });
    const record = await screen.findByTestId('palette-record', {}, { timeout: 3000 });
    expect(record).toHaveTextContent('Soporte web');
    expect(findBots).toHaveBeenCalledWith(expect.objectContaining({ search: 'sopo', limit: 5 }));
    fireEvent.click(record);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/crud/bot?view=b1'));
  });
});
