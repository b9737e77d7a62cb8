import { describe, expect, it } from 'vitest';
import { loadEnvironmentDefaults, type EnvironmentDefaults } from '../../../server/config.ts';
import { resolveEffectiveConfig } from '../../../server/config/resolve-effective-config.ts';

/** Precedence (Settings, then environment, then defaults) and key-to-origin binding, as a table. */

const A = 'https://a.example/v1';
const B = 'https://b.example/v1';
const env = (vars: Record<string, string>): EnvironmentDefaults => loadEnvironmentDefaults(vars);
const settings = (values: Record<string, unknown>) => new Map(Object.entries(values));

describe('resolveEffectiveConfig: precedence', () => {
  it('Settings win over the environment; empty settings and "auto" leave it in place', () => {
    const fromEnv = env({ LLM_BASE_URL: A, LLM_MODEL: 'env-model', LLM_PROVIDER: 'openai-compatible', EMBEDDING_MODEL: 'env-embed' });
    expect(resolveEffectiveConfig(settings({}), fromEnv).llm).toMatchObject({ baseUrl: A, model: 'env-model', provider: 'openai-compatible' });
    expect(resolveEffectiveConfig(settings({ 'llm.model': '  ', 'llm.provider': 'auto' }), fromEnv).llm).toMatchObject({ model: 'env-model', provider: 'openai-compatible' });
    const chosen = resolveEffectiveConfig(settings({ 'llm.model': 'set-model', 'llm.provider': 'offline', 'embedding.model': 'set-embed' }), fromEnv);
    expect(chosen.llm).toMatchObject({ model: 'set-model', provider: 'offline' });
    expect(chosen.embedding.model).toBe('set-embed');
  });

  it('llm.timeoutMs: a value chosen in Settings wins; the seeded default yields to LLM_TIMEOUT_MS', () => {
    const cases: [unknown, Record<string, string>, number | null][] = [
      [60000, {}, 60000],
      [60000, { LLM_TIMEOUT_MS: '5000' }, 5000],
      [9000, { LLM_TIMEOUT_MS: '5000' }, 9000],
      [null, { LLM_TIMEOUT_MS: '5000' }, 5000],
      [null, {}, null],
    ];
    for (const [stored, vars, expected] of cases) {
      const resolved = resolveEffectiveConfig(settings({ 'llm.timeoutMs': stored }), env(vars));
      expect(resolved.llm.timeoutMs, JSON.stringify([stored, vars])).toBe(expected);
      expect(resolved.embedding.timeoutMs).toBe(expected);
    }
  });

  it('environment-only switches: RAG_ALLOW_PRIVATE_URLS and GRAPHQL_INTROSPECTION', () => {
    expect(resolveEffectiveConfig(settings({}), env({}))).toMatchObject({ allowPrivateUrls: false, graphqlIntrospection: true });
    expect(resolveEffectiveConfig(settings({}), env({ RAG_ALLOW_PRIVATE_URLS: 'TRUE', GRAPHQL_INTROSPECTION: 'false' }))).toMatchObject({
      allowPrivateUrls: true, graphqlIntrospection: false,
    });
  });
});

describe('resolveEffectiveConfig: a key only goes to the origin it was configured for', () => {
  // [what, environment, settings, chat key expected, embedding base URL expected, embedding key expected]
  const cases: [string, Record<string, string>, Record<string, unknown>, string | null, string | null, string | null][] = [
    ['env host, env key', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'embedding.model': 'e' }, 'env', A, 'env'],
    ['Settings host elsewhere: no env key', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'llm.baseUrl': B, 'embedding.model': 'e' }, null, B, null],
    ['Settings host, same origin other path: env key', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'llm.baseUrl': 'https://a.example/v2' }, 'env', 'https://a.example/v2', 'env'],
    ['env key with no LLM_BASE_URL is OpenAI\'s', { LLM_API_KEY: 'env' }, { 'llm.baseUrl': B }, null, B, null],
    ['env key with no host anywhere: OpenAI, embeddings too', { LLM_API_KEY: 'env' }, {}, 'env', null, 'env'],
    ['stored key for the stored host', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'llm.baseUrl': B, 'llm.apiKey': 'stored' }, 'stored', B, 'stored'],
    ['embeddings elsewhere do not borrow the chat key', {}, { 'llm.baseUrl': A, 'llm.apiKey': 'chat', 'embedding.baseUrl': B }, 'chat', B, null],
    ['embeddings on the chat host borrow its key', {}, { 'llm.baseUrl': A, 'llm.apiKey': 'chat', 'embedding.baseUrl': 'https://a.example/embed' }, 'chat', 'https://a.example/embed', 'chat'],
    ['EMBEDDING_API_KEY stays with EMBEDDING_BASE_URL', { EMBEDDING_BASE_URL: A, EMBEDDING_API_KEY: 'emb' }, { 'embedding.baseUrl': B }, null, B, null],
    ['EMBEDDING_API_KEY defaults to LLM_BASE_URL\'s origin', { LLM_BASE_URL: A, EMBEDDING_API_KEY: 'emb' }, {}, null, A, 'emb'],
    ['stored embedding key wins', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'embedding.baseUrl': B, 'embedding.apiKey': 'own' }, 'env', B, 'own'],
    ['offline chat lends nothing', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'llm.provider': 'offline' }, 'env', null, null],
    ['an invalid host gets no env key', { LLM_BASE_URL: A, LLM_API_KEY: 'env' }, { 'llm.baseUrl': 'not a url' }, null, 'not a url', null],
  ];
  for (const [what, vars, stored, chatKey, embeddingUrl, embeddingKey] of cases) {
    it(what, () => {
      const resolved = resolveEffectiveConfig(settings(stored), env(vars));
      expect(resolved.llm.apiKey ?? null).toBe(chatKey);
      expect(resolved.embedding.baseUrl ?? null).toBe(embeddingUrl);
      expect(resolved.embedding.apiKey ?? null).toBe(embeddingKey);
    });
  }
});

describe('resolveEffectiveConfig: SMTP', () => {
  const smtp = (stored: Record<string, unknown>, vars: Record<string, string>) => resolveEffectiveConfig(settings(stored), env(vars)).smtp;
  const seeded = { 'smtp.port': 587, 'smtp.secure': false, 'smtp.from': 'Forja <no-reply@localhost>' };

  it('no host anywhere: null (mails go to the outbox)', () => {
    expect(smtp(seeded, { SMTP_USER: 'u', SMTP_PASSWORD: 'p' })).toBeNull();
  });

  it('SMTP_* alone; the seeded port, TLS and sender yield to the environment', () => {
    expect(smtp(seeded, { SMTP_HOST: 'mail.a.example', SMTP_PORT: '465', SMTP_SECURE: 'true', SMTP_USER: 'u', SMTP_PASSWORD: 'p', SMTP_FROM: 'A <a@a.example>' })).toEqual({
      host: 'mail.a.example', port: 465, secure: true, user: 'u', password: 'p', from: 'A <a@a.example>',
    });
    expect(smtp(seeded, { SMTP_HOST: 'mail.a.example' })).toEqual({ host: 'mail.a.example', port: 587, secure: false, from: 'Forja <no-reply@localhost>' });
  });

  it('values chosen in Settings win', () => {
    expect(smtp({ ...seeded, 'smtp.port': 2525, 'smtp.from': 'B <b@b.example>' }, { SMTP_HOST: 'mail.a.example', SMTP_PORT: '465', SMTP_FROM: 'A <a@a.example>' })).toMatchObject({
      port: 2525, from: 'B <b@b.example>',
    });
  });

  it('SMTP_USER / SMTP_PASSWORD are never sent to an smtp.host from Settings that is another server', () => {
    const vars = { SMTP_HOST: 'mail.a.example', SMTP_USER: 'u', SMTP_PASSWORD: 'env-secret' };
    expect(smtp({ ...seeded, 'smtp.host': 'evil.example' }, vars)).toEqual({ host: 'evil.example', port: 587, secure: false, from: 'Forja <no-reply@localhost>' });
    expect(smtp({ ...seeded, 'smtp.host': 'MAIL.A.example' }, vars)).toMatchObject({ user: 'u', password: 'env-secret' });
    expect(smtp({ ...seeded, 'smtp.host': 'evil.example', 'smtp.user': 'v', 'smtp.password': 'stored' }, vars)).toMatchObject({ user: 'v', password: 'stored' });
  });
});

describe('resolveEffectiveConfig: Google client id and public URL', () => {
  it('the setting, else the variable; the public URL without a trailing slash', () => {
    const vars = { GOOGLE_CLIENT_ID: 'env-id', PUBLIC_URL: 'https://env.example/' };
    expect(resolveEffectiveConfig(settings({}), env(vars))).toMatchObject({ googleClientId: 'env-id', publicUrl: 'https://env.example' });
    expect(resolveEffectiveConfig(settings({ 'google.clientId': ' set-id ', 'app.publicUrl': 'https://set.example' }), env(vars))).toMatchObject({
      googleClientId: 'set-id', publicUrl: 'https://set.example',
    });
    expect(resolveEffectiveConfig(settings({}), env({}))).toMatchObject({ googleClientId: null, publicUrl: null });
  });
});

describe('loadConfig: PG_POOL_SIZE', () => {
  it('defaults to 10, takes a positive integer, refuses anything else at start', async () => {
    const { loadConfig } = await import('../../../server/config.ts');
    expect(loadConfig({}).pgPoolSize).toBe(10);
    expect(loadConfig({ PG_POOL_SIZE: '4' }).pgPoolSize).toBe(4);
    for (const bad of ['0', '-1', 'many', '2.5']) expect(() => loadConfig({ PG_POOL_SIZE: bad }), bad).toThrow(/PG_POOL_SIZE/);
  });
});
