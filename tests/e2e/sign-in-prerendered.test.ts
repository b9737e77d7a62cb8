// The sign-in page as the build prerenders it (scripts/prerender-sign-in.ts): its form is in the HTML,
// React hydrates it, and a visitor whose state differs from the prerendered one (language, theme)
// gets it rendered afresh. Any hydration mismatch is a console error, which fails these tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

describe('the prerendered sign-in page', () => {
  it('is in the HTML: the form shows with scripts turned off', async () => {
    const context = await app.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(`${app.webUrl}/login`);
      await page.getByTestId('login-username').waitFor();
      expect(await page.getByLabel('Usuario').count()).toBe(1);
      expect(await page.getByTestId('login-password').isVisible()).toBe(true);
      expect(await page.getByTestId('login-submit').textContent()).toContain('Iniciar sesión');
      // Nothing can be submitted before the scripts run: the button starts disabled, as in the app.
      expect(await page.getByTestId('login-submit').isDisabled()).toBe(true);
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
      await app.screenshot(page, 'login-prerendered-no-script');
    } finally {
      await context.close();
    }
  });

  it("takes typing and a submit before the console's scripts ran, and signs in with them once they have", async () => {
    const page = await app.newPage();
    // Hold the entry script back until the form has been filled in and submitted.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: Route[] = [];
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      held.push(route);
      await released;
      await route.continue();
    });
    await page.goto(`${app.webUrl}/login?redirect=%2Fsettings`, { waitUntil: 'commit' });
    await page.locator('html[data-early-sign-in="ready"]').waitFor({ state: 'attached' });
    expect(await page.getByTestId('login-submit').isDisabled()).toBe(true);
    await page.getByTestId('login-username').fill(app.adminUsername);
    await page.getByTestId('login-password').fill(app.adminPassword);
    // The small script of the prerendered page enables the button, as the React form would.
    expect(await page.getByTestId('login-submit').isEnabled()).toBe(true);
    await page.getByTestId('login-submit').click();
    expect(await page.getByTestId('login-submit').getAttribute('aria-busy')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).search).toBe('?redirect=%2Fsettings'); // never submitted by the browser itself
    expect(held.length).toBe(1);
    release();
    // Hydrated, React takes the held submit with the typed values and signs in.
    await page.waitForURL(`${app.webUrl}/settings`, { timeout: 30_000 });
  });

  it('keeps what was typed before the scripts ran when the visitor submits after hydration', async () => {
    const page = await app.newPage();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${app.webUrl}/login`, { waitUntil: 'commit' });
    await page.getByTestId('login-username').fill(app.adminUsername);
    await page.getByTestId('login-password').fill('wrong-password');
    release();
    await expect.poll(() => page.evaluate(() => Object.keys(document.querySelector('form')!).some((key) => key.startsWith('__reactProps'))), { timeout: 30_000 }).toBe(true);
    expect(await page.getByTestId('login-username').inputValue()).toBe(app.adminUsername);
    page.expectErrors(/status of 401 \(Unauthorized\)/);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('form-error').waitFor();
    expect(await page.getByTestId('form-error').textContent()).toContain('Credenciales inválidas');
  });

  it('types into the hydrated form as into any other', async () => {
    const page = await app.newPage();
    await page.goto(`${app.webUrl}/login`);
    await page.getByTestId('login-username').fill(app.adminUsername);
    await page.getByTestId('login-password').fill(app.adminPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    await page.getByTestId('gallery').waitFor();
  });

  it('is rendered afresh, in English, for a visitor who chose English', async () => {
    const page = await app.newPage();
    await page.addInitScript(() => localStorage.setItem('forja.language', 'en'));
    await page.goto(`${app.webUrl}/login`);
    await expect.poll(() => page.getByTestId('login-submit').textContent(), { timeout: 30_000 }).toContain('Sign in');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByTestId('login-username').count()).toBe(1);
    await app.signIn(page);
    await page.getByTestId('gallery').waitFor();
  });

  it('is rendered afresh, light, for a visitor who chose the light theme', async () => {
    const page = await app.newPage({ colorScheme: 'light' });
    await page.addInitScript(() => localStorage.setItem('forja.darkMode', 'false'));
    await page.goto(`${app.webUrl}/login`);
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme'), { timeout: 30_000 }).toBe('light');
    expect(await page.getByTestId('login-dark-mode').isChecked()).toBe(false);
    await app.screenshot(page, 'login-light');
  });
});
