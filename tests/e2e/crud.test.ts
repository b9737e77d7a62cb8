// One full CRUD round trip in Chromium against the real API server (see helpers/app-under-test.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
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
