import type { Page } from 'playwright-core';

export type WatchedPage = Page & {
  /** Every page error, console error and CSP violation seen on this page, in order. */
  errors: string[];
  /** Declares errors this test provokes on purpose (e.g. the 401 of a wrong password). */
  expectErrors(pattern: RegExp): void;
};

interface Watch {
  page: WatchedPage;
  expected: RegExp[];
  /** How many of `errors` an earlier test already answered for. */
  checked: number;
}

const watches: Watch[] = [];

/**
 * Records on the page what a user's browser would show as broken: uncaught errors, console errors
 * (React's, failed loads) and Content-Security-Policy violations, which Chromium otherwise only
 * logs — a form validator blocked by the CSP once went unnoticed this way.
 */
export async function watchBrowserErrors(page: Page): Promise<WatchedPage> {
  const watched = page as WatchedPage;
  const watch: Watch = { page: watched, expected: [], checked: 0 };
  watched.errors = [];
  watched.expectErrors = (pattern) => watch.expected.push(pattern);
  page.on('pageerror', (error) => watched.errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(`console error: ${message.text()} (${message.location().url || 'no url'})`);
  });
  await page.exposeBinding('__reportCspViolation', (_source, text: string) => {
    watched.errors.push(`CSP violation: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      void report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  watches.push(watch);
  return watched;
}

/**
 * The errors recorded since the last call that no test declared; each is reported once. Open
 * pages first settle (their requests answered), so an error arriving late is blamed on the test
 * that caused it, not the next one; declared patterns last one test only.
 */
export async function takeUnexpectedBrowserErrors(): Promise<string[]> {
  await Promise.all(watches.filter((watch) => !watch.page.isClosed()).map((watch) => watch.page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined)));
  const unexpected: string[] = [];
  for (const watch of watches) {
    const fresh = watch.page.errors.slice(watch.checked);
    watch.checked = watch.page.errors.length;
    unexpected.push(...fresh.filter((error) => !watch.expected.some((pattern) => pattern.test(error))));
    watch.expected = [];
  }
  return unexpected;
}
