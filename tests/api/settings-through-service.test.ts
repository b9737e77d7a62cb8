// Issue 17: a setting's value is written through the entity service like every other entity
// (hooks, one transaction), so a host change and the clearing of the secrets bound to it are
// stored together or not at all. Runs on SQLite and (--project api-postgres) on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

let server: TestServer;
const seen: string[] = [];
let failOn: string | null = null;

async function values(): Promise<Record<string, unknown>> {
  const list = (await server.get('/api/settings')).body as { key: string; value: unknown }[];
  return Object.fromEntries(list.map((setting) => [setting.key, setting.value]));
}

beforeAll(async () => {
  server = await startTestServer();
  server.forja.service.hooks.add('setting', {
    async afterChange(event) {
      const key = String(event.record.key);
      seen.push(`${key}=${JSON.stringify(event.record.value)}`);
      if (key === failOn) throw new Error(`afterChange refused ${key}`);
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('settings are written through the entity service', () => {
  it("runs the setting's hooks with the stored value (a number stays a number)", async () => {
    seen.length = 0;
    const res = await server.patch('/api/settings/smtp.port', { value: '2526' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.value).toBe(2526);
    expect(seen).toEqual(['smtp.port=2526']);
  });

  it('a host change clears its bound secret in the same write, both seen by the hooks', async () => {
    expect((await server.patch('/api/settings/llm.baseUrl', { value: 'https://llm.one.example/v1' })).status).toBe(200);
    expect((await server.patch('/api/settings/llm.apiKey', { value: 'sk-one' })).status).toBe(200);
    seen.length = 0;
    const res = await server.patch('/api/settings/llm.baseUrl', { value: 'https://llm.two.example/v1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cleared).toEqual(['llm.apiKey']);
    expect(seen).toEqual(['llm.baseUrl="https://llm.two.example/v1"', 'llm.apiKey=""']);
    const stored = await values();
    expect(stored['llm.baseUrl']).toBe('https://llm.two.example/v1');
    expect(stored['llm.apiKey']).toBe('');
  });

  it('when clearing the secret fails, the host change is rolled back too (nothing half-written)', async () => {
    expect((await server.patch('/api/settings/llm.apiKey', { value: 'sk-two' })).status).toBe(200);
    failOn = 'llm.apiKey';
    try {
      const res = await server.patch('/api/settings/llm.baseUrl', { value: 'https://llm.three.example/v1' });
      expect(res.status).toBe(500);
    } finally {
      failOn = null;
    }
    const stored = await values();
    expect(stored['llm.baseUrl']).toBe('https://llm.two.example/v1');
    // Masked in the API: the secret is still set.
    expect(stored['llm.apiKey']).not.toBe('');
  });
});
