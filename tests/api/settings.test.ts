import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_DEFINITIONS } from '../../server/settings/setting-definitions.ts';
import { settingsStoreFor } from '../../server/settings/settings-store.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { expectNoLeaks, userWith } from './helpers/fixtures.ts';
import { fromDraft, validateSetting, type DraftValue } from '../../src/settings/setting-value.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expectNoLeaks(server, ['sk-very-secret-value']);
  await server.close();
});

describe('settings API', () => {
  it('lists the seeded settings, grouped by category, by key or id', async () => {
    const list = (await server.get('/api/settings')).body;
    expect(list.map((s: any) => s.key).sort()).toEqual(Object.keys(SETTING_DEFINITIONS).sort());
    const grouped = (await server.get('/api/settings/grouped')).body;
    expect(grouped.map((g: any) => g.category)).toEqual(['auth', 'general', 'google', 'llm', 'smtp']);
    expect(grouped.find((g: any) => g.category === 'smtp').settings.map((s: any) => s.key)).toContain('smtp.host');
    const byKey = (await server.get('/api/settings/llm.model')).body;
    expect(byKey).toMatchObject({ key: 'llm.model', type: 'string', category: 'llm', label: 'setting.llm.model' });
    expect((await server.get(`/api/settings/${byKey._id}`)).body.key).toBe('llm.model');
    expect((await server.get('/api/settings/nope')).status).toBe(404);
  });

  it('validates by type with the spec messages', async () => {
    const patch = (key: string, value: unknown) => server.patch(`/api/settings/${key}`, { value });
    const numbers = await patch('smtp.port', 'abc');
    expect(numbers.status).toBe(400);
    expect(numbers.body).toEqual({
      message: 'Formato Invalido. Solo se esperan números.',
      i18nMessage: 'error.validation',
      inputErrors: [{ field: 'value', reason: 'validation.setting.numbers' }],
    });
    expect((await patch('smtp.port', '2525')).body.value).toBe(2525);
    expect((await patch('smtp.secure', 'yes')).body.inputErrors).toEqual([{ field: 'value', reason: 'validation.setting.format' }]);
    expect((await patch('smtp.secure', true)).body.value).toBe(true);
    expect((await patch('llm.provider', 'magic')).body.message).toBe('Formato Invalido.');
    expect((await patch('llm.provider', 'offline')).body.value).toBe('offline');
    expect((await patch('llm.baseUrl', 'not a url')).body.inputErrors).toEqual([{ field: 'value', reason: 'validation.setting.format' }]);
    expect((await patch('llm.baseUrl', 'http://localhost:11434/v1')).status).toBe(200);
    expect((await server.patch('/api/settings/llm.model', { nothing: 1 })).status).toBe(400);
  });

  it('never returns password values in clear; the mask sent back keeps the value', async () => {
    const set = await server.patch('/api/settings/llm.apiKey', { value: 'sk-very-secret-value' });
    expect(set.body.value).toBe('********');
    expect((await server.get('/api/settings/llm.apiKey')).body.value).toBe('********');
    await server.patch('/api/settings/llm.apiKey', { value: '********' });
    const store = settingsStoreFor(server.forja.database);
    expect(await store.get('llm.apiKey')).toBe('sk-very-secret-value');
    expect(await store.getNumber('smtp.port')).toBe(2525);
    await expect(store.get('no.such.key')).rejects.toThrow('Unknown setting "no.such.key"');
  });

  it('reads need setting:view (or manage), writes setting:manage', async () => {
    const viewer = await userWith(server, ['setting:view']);
    expect((await viewer.client.get('/api/settings')).status).toBe(200);
    expect((await viewer.client.patch('/api/settings/llm.model', { value: 'x' })).status).toBe(403);
    const manager = await userWith(server, ['setting:manage']);
    expect((await manager.client.get('/api/settings/grouped')).status).toBe(200);
    expect((await manager.client.patch('/api/settings/llm.model', { value: 'llama3.1' })).body.value).toBe('llama3.1');
    const nobody = await userWith(server, []);
    expect((await nobody.client.get('/api/settings')).status).toBe(403);
  });

  it('values survive a restart; seeding never overwrites them', async () => {
    const dataDir = server.dataDir;
    await server.patch('/api/settings/auth.defaultRole', { value: 'Editors' });
    const again = await startTestServer({ dataDir, identity: { jwtSecret: server.jwtSecret } });
    try {
      expect((await again.get('/api/settings/auth.defaultRole')).body.value).toBe('Editors');
      expect((await again.get('/api/roles/all')).body.filter((r: any) => r.name === 'Admin')).toHaveLength(1);
    } finally {
      await again.close();
    }
  });
});

describe('the console dialog and PATCH agree (contract/settings/validate-setting-value.ts)', () => {
  // Locale key the dialog shows → the reason PATCH answers with.
  const REASON_OF_KEY: Record<string, string> = {
    'settings.invalidFormat': 'validation.setting.format',
    'settings.onlyNumbers': 'validation.setting.numbers',
    'validation.setting.tooLong': 'validation.setting.tooLong',
    'validation.required': 'validation.required',
    'validation.min': 'validation.min',
    'validation.max': 'validation.max',
    'validation.integer': 'validation.integer',
  };
  const drafts: [string, DraftValue][] = [
    ['llm.timeoutMs', '30000'], ['llm.timeoutMs', '12a'], ['llm.timeoutMs', '6e4'], ['llm.timeoutMs', ''], ['llm.timeoutMs', '-5'], ['llm.timeoutMs', '1.5'],
    ['llm.timeoutMs', '1,5'], ['smtp.port', '99999'], ['smtp.port', '0'], ['smtp.port', '2525'], ['smtp.port', ''], ['llm.timeoutMs', ' 45000 '],
    ['smtp.port', '1'.repeat(65)], ['llm.baseUrl', 'https://h.example/v1'], ['llm.baseUrl', 'ftp://h'], ['llm.baseUrl', ''],
    ['app.publicUrl', 'https://forja.example/path'], ['llm.provider', 'offline'], ['llm.provider', 'other'], ['llm.provider', ''],
    ['auth.registrationEnabled', true], ['smtp.from', 'x'.repeat(2049)], ['llm.model', 'gpt-4o-mini'],
  ];
  it('every draft: the dialog refuses exactly what the server refuses, for the same reason', async () => {
    for (const [key, draft] of drafts) {
      const setting = (await server.get(`/api/settings/${key}`)).body;
      const dialog = validateSetting(setting, draft);
      const res = await server.patch(`/api/settings/${key}`, { value: fromDraft(setting.type, draft) });
      const label = `${key} ${JSON.stringify(draft).slice(0, 40)}`;
      if (dialog === null) {
        expect(res.status, label).toBe(200);
      } else {
        expect(res.status, label).toBe(400);
        expect(res.body.inputErrors, label).toEqual([{ field: 'value', reason: REASON_OF_KEY[dialog] }]);
      }
    }
    // The refused values left the last good one; a number that may be empty is stored empty.
    expect((await server.get('/api/settings/llm.timeoutMs')).body.value).toBe(45000);
    expect((await server.get('/api/settings/smtp.port')).body.value).toBeNull();
    // Sent as JSON numbers or text, null or '': the same verdicts.
    for (const value of [-5, 1.5, null, '', '  ', 0]) {
      const res = await server.patch('/api/settings/llm.timeoutMs', { value });
      expect(res.status, JSON.stringify(value)).toBe(400);
    }
    expect((await server.patch('/api/settings/smtp.port', { value: 99999 })).status).toBe(400);
    expect((await server.patch('/api/settings/smtp.port', { value: 587 })).body.value).toBe(587);
    expect((await server.get('/api/settings/llm.timeoutMs')).body.value).toBe(45000);
  });
});

describe('public sign-in options', () => {
  it('GET /api/settings/public answers anonymous callers with only the three sign-in flags', async () => {
    const server = await startTestServer();
    try {
      const before = await server.as(null).get('/api/settings/public');
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ registration: false, recovery: true, googleClientId: null });
      const setting = (await server.get('/api/settings/auth.registrationEnabled')).body as { _id: string };
      expect((await server.patch(`/api/settings/${setting._id}`, { value: true })).status).toBe(200);
      expect((await server.as(null).get('/api/settings/public')).body).toEqual({ registration: true, recovery: true, googleClientId: null });
    } finally {
      await server.close();
    }
  });
});
