// The same CRUD round trip as crud.test.ts, with the console configured for the GraphQL transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';
import { crudRoundTrip } from './helpers/crud-round-trip.ts';

let app: AppUnderTest;

beforeAll(async () => {
  // A console built for the GraphQL transport (VITE_TRANSPORT is read at build time).
  app = await startApp({ consoleEnv: { VITE_TRANSPORT: 'graphql' } });
});

afterAll(async () => {
  await app?.stop();
});

describe('CRUD page over GraphQL in Chromium', () => {
  it('creates, edits and deletes a bot trace status through /graphql', async () => {
    const page = await app.newPage();
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/graphql' || url.pathname.startsWith('/api/bot-trace-statuses')) calls.push(`${request.method()} ${url.pathname}`);
    });
    await crudRoundTrip(app, page);
    expect(calls.filter((call) => call === 'POST /graphql').length).toBeGreaterThanOrEqual(4);
    expect(calls.filter((call) => call.includes('/api/bot-trace-statuses'))).toEqual([]);
    await page.close();
  });
});
