// One full CRUD round trip in Chromium against the real API server (see helpers/app-under-test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';
import { crudRoundTrip } from './helpers/crud-round-trip.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

describe('CRUD page in Chromium', () => {
  it('creates, edits and deletes a bot trace status', async () => {
    const page = await app.newPage();
    await crudRoundTrip(app, page);
    await page.close();
  });
});

describe('the Content-Security-Policy users get', () => {
  it('is served with the console, forbids eval, and a violation fails the test that causes it', async () => {
    const page = await app.newPage();
    const response = await page.goto(`${app.webUrl}/login`);
    const policy = response!.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'self'/);
    expect(policy).not.toMatch(/unsafe-eval|unsafe-inline'[^;]*script/);
    // Page scripts run under the policy (the test's own evaluate() does not): an inline script
    // that would call AJV's compiler is refused, and the refusal is recorded on the page.
    await page.addScriptTag({ content: "window.__compiled = String(new Function('return 1')());" }).catch(() => undefined);
    await expect.poll(() => page.errors.some((error) => error.startsWith('CSP violation: script-src'))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __compiled?: string }).__compiled)).toBeUndefined();
    page.expectErrors(/CSP violation: script-src|violates the following Content Security Policy directive/);
    await page.close();
  });
});
