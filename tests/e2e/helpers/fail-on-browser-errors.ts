// e2e setupFile: a test fails when any page it used logged an error or a CSP violation it did
// not declare (tests/e2e/helpers/browser-errors.ts).
import { afterEach, expect } from 'vitest';
import { takeUnexpectedBrowserErrors } from './browser-errors.ts';

afterEach(async () => {
  expect(await takeUnexpectedBrowserErrors(), 'errors in the browser (page errors, console errors, CSP violations)').toEqual([]);
});
