import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironmentDefaults, type EnvironmentDefaults } from '../../server/config.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, minimalKnowledge } from './helpers/fixtures.ts';
import { anonymous } from './chat-visitor.ts';
import { completion, json, startFakeOpenAiServer, type FakeOpenAiServer, type RecordedRequest } from '../unit/llm/fake-openai-server.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';
import { fallbackOptions, parsePublicOptions } from '../../src/identity/public-options.ts';

/**
 * The effective configuration (server/config/resolve-effective-config.ts) against a running server:
 * Settings changed through PATCH /api/settings/:id apply without a restart, and a key configured
 * for one host is never sent to another. Each fake server records the requests it receives,
 * Authorization header included. The environment is injected (createServer's `environment`),
 * as it would be read from LLM_* / EMBEDDING_* at start.
 */

const ENV_KEY = 'sk-env-only-for-the-env-host';
const CHAT_KEY = 'sk-chat-only-for-the-chat-host';

/** Answers chat completions and embeddings (a vector of the text's length, enough to rank). */
function answerEverything(fake: FakeOpenAiServer): void {
  fake.handle((request, response) => {
    if (request.url === '/v1/embeddings') {
      const inputs: string[] = Array.isArray(request.body.input) ? request.body.input : [request.body.input];
      return json(response, 200, {
        object: 'list',
        model: request.body.model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 0] })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    }
    return json(response, 200, completion('Los pedidos llegan en 48 horas.'));
  });
}

/** An empty environment (no LLM_* / EMBEDDING_* / SMTP_*) with the given parts. */
const environment = (overrides: Partial<EnvironmentDefaults> = {}): EnvironmentDefaults => ({ ...loadEnvironmentDefaults({}), ...overrides });

const embeddingCalls = (fake: FakeOpenAiServer) => fake.requests.filter((r) => r.url === '/v1/embeddings');
const chatCalls = (fake: FakeOpenAiServer) => fake.requests.filter((r) => r.url === '/v1/chat/completions');
const authorizationOf = (request: RecordedRequest) => String(request.headers.authorization ?? '');

let envHost: FakeOpenAiServer;
let otherHost: FakeOpenAiServer;
const servers: TestServer[] = [];

beforeAll(async () => {
  envHost = await startFakeOpenAiServer();
  otherHost = await startFakeOpenAiServer();
  answerEverything(envHost);
  answerEverything(otherHost);
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  envHost.requests.length = 0;
  otherHost.requests.length = 0;
});
afterAll(async () => {
  await envHost?.close();
  await otherHost?.close();
});

async function start(env: EnvironmentDefaults): Promise<TestServer> {
  const server = await startTestServer({ environment: env });
  servers.push(server);
  return server;
}

async function setSetting(server: TestServer, key: string, value: unknown): Promise<void> {
  const res = await server.patch(`/api/settings/${key}`, { value });
  expect(res.status, res.text).toBe(200);
}

/** A trained knowledge base and a bot answering from it. */
async function trainedBot(server: TestServer): Promise<{ knowledgeId: string; botId: string }> {
  const knowledge = await create(
    server,
    '/api/knowledge',
    minimalKnowledge('Envíos', { texts: [{ title: 'Envíos', content: 'Los pedidos se envían en un plazo de 48 horas laborables.' }], scoreThreshold: 0 }),
  );
  const trained = await server.get(`/api/rag/train/${knowledge._id}`);
  expect(trained.status, trained.text).toBe(200);
  const bot = await create(server, '/api/bots', minimalBot('Envíos', { knowledge: knowledge._id }));
  return { knowledgeId: knowledge._id, botId: bot._id };
}

async function ask(server: TestServer, botId: string, message: string) {
  const visitor = anonymous(server.baseUrl);
  const started = await visitor.post('/api/chat/start', { name: 'Eva', email: `eva${Math.random()}@example.com`, botId });
  expect(started.status, started.text).toBe(201);
  const answer = await visitor.post(`/api/chat/message/${started.body._id}`, { message });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

// Vectors are SQLite-only (no pgvector in our PostgreSQL packages): there the index stays full text.
describe.skipIf(TEST_BACKEND === 'postgres')('embedding settings apply without a restart', () => {
  it('a PATCHed embedding model reaches the next training, search and chat retrieval', async () => {
    const server = await start(environment());
    const { knowledgeId, botId } = await trainedBot(server);
    expect(embeddingCalls(otherHost)).toHaveLength(0);

    await setSetting(server, 'embedding.baseUrl', otherHost.baseUrl);
    await setSetting(server, 'embedding.model', 'toy-embed');

    // Training: the chunks are embedded by the newly configured model.
    const retrained = await server.get(`/api/rag/train/${knowledgeId}`);
    expect(retrained.status, retrained.text).toBe(200);
    const trainingEmbeds = embeddingCalls(otherHost);
    expect(trainingEmbeds.length).toBeGreaterThan(0);
    expect(trainingEmbeds.every((r) => r.body.model === 'toy-embed')).toBe(true);

    // Search: the query is embedded too (hybrid retrieval).
    otherHost.requests.length = 0;
    expect((await server.get(`/api/rag/search/${knowledgeId}?q=pedidos`)).status).toBe(200);
    expect(embeddingCalls(otherHost).map((r) => r.body.input)).toEqual([['pedidos']]);

    // The chat's retrieval: the visitor's question is embedded by the same model.
    otherHost.requests.length = 0;
    await ask(server, botId, '¿Cuándo llegan los pedidos?');
    expect(embeddingCalls(otherHost).map((r) => r.body.input)).toEqual([['¿Cuándo llegan los pedidos?']]);

    // Clearing the model goes back to full text: no more embedding calls.
    await setSetting(server, 'embedding.model', '');
    otherHost.requests.length = 0;
    await ask(server, botId, '¿Cuándo llegan los pedidos?');
    expect((await server.get(`/api/rag/search/${knowledgeId}?q=pedidos`)).status).toBe(200);
    expect(embeddingCalls(otherHost)).toHaveLength(0);
  });
});

describe('keys are sent only to the host they were configured for', () => {
  it('LLM_API_KEY is not sent to an llm.baseUrl set in Settings on another origin', async () => {
    const server = await start(environment({ llm: { baseUrl: envHost.baseUrl, model: 'env-model', apiKey: ENV_KEY } }));
    const { botId } = await trainedBot(server);

    // The environment's host gets the environment's key.
    await ask(server, botId, '¿Cuándo llegan los pedidos?');
    expect(chatCalls(envHost).map(authorizationOf)).toEqual([`Bearer ${ENV_KEY}`]);

    // Settings move the chat to another origin: the env key stays home.
    await setSetting(server, 'llm.baseUrl', otherHost.baseUrl);
    await ask(server, botId, '¿Cuándo llegan los pedidos?');
    const sent = chatCalls(otherHost);
    expect(sent).toHaveLength(1);
    expect(authorizationOf(sent[0]!)).not.toContain(ENV_KEY);
    expect(JSON.stringify(otherHost.requests)).not.toContain(ENV_KEY);

    // A key stored for the new host is the one it gets.
    await setSetting(server, 'llm.apiKey', CHAT_KEY);
    await ask(server, botId, '¿Cuándo llegan los pedidos?');
    expect(chatCalls(otherHost).map(authorizationOf).at(-1)).toBe(`Bearer ${CHAT_KEY}`);

    // Same origin as LLM_BASE_URL, another path: the env key is still meant for it.
    await setSetting(server, 'llm.baseUrl', `${envHost.origin}/v1/`);
    envHost.requests.length = 0;
    await ask(server, botId, '¿Cuándo llegan los pedidos?');
    expect(chatCalls(envHost).map(authorizationOf)).toEqual([`Bearer ${ENV_KEY}`]);
  });

  it('the "improve text" route follows the same rule', async () => {
    const server = await start(environment({ llm: { baseUrl: envHost.baseUrl, model: 'env-model', apiKey: ENV_KEY } }));
    await setSetting(server, 'llm.baseUrl', otherHost.baseUrl);
    const improved = await server.post('/api/rag/improve', { text: 'el envio es gratis' });
    expect(improved.status, improved.text).toBe(200);
    expect(chatCalls(otherHost)).toHaveLength(1);
    expect(JSON.stringify(otherHost.requests)).not.toContain(ENV_KEY);
  });

  it.skipIf(TEST_BACKEND === 'postgres')('the embeddings do not borrow the chat key for another embedding host', async () => {
    const server = await start(environment());
    await setSetting(server, 'llm.baseUrl', envHost.baseUrl);
    await setSetting(server, 'llm.model', 'chat-model');
    await setSetting(server, 'llm.apiKey', CHAT_KEY);
    await setSetting(server, 'embedding.model', 'toy-embed');

    // No embedding host: the embeddings go to the chat's server with the chat's key.
    const { knowledgeId } = await trainedBot(server);
    expect(embeddingCalls(envHost).map(authorizationOf)).toContain(`Bearer ${CHAT_KEY}`);

    // Another embedding host: embedded there, without the chat's key.
    await setSetting(server, 'embedding.baseUrl', otherHost.baseUrl);
    expect((await server.get(`/api/rag/train/${knowledgeId}`)).status).toBe(200);
    expect((await server.get(`/api/rag/search/${knowledgeId}?q=pedidos`)).status).toBe(200);
    expect(embeddingCalls(otherHost).length).toBeGreaterThan(0);
    expect(JSON.stringify(otherHost.requests)).not.toContain(CHAT_KEY);
  });

  it.skipIf(TEST_BACKEND === 'postgres')('EMBEDDING_API_KEY and LLM_API_KEY stay with their environment hosts', async () => {
    const server = await start(
      environment({ llm: { baseUrl: envHost.baseUrl, model: 'env-model', apiKey: ENV_KEY }, embedding: { model: 'toy-embed', apiKey: 'sk-env-embedding' } }),
    );
    const { knowledgeId } = await trainedBot(server);
    // EMBEDDING_BASE_URL unset: the embeddings use LLM_BASE_URL, where both env keys belong.
    expect(embeddingCalls(envHost).map(authorizationOf)).toContain('Bearer sk-env-embedding');

    // Vectors are kept per model, so the retraining embeds nothing new; the search embeds the query.
    await setSetting(server, 'embedding.baseUrl', otherHost.baseUrl);
    expect((await server.get(`/api/rag/train/${knowledgeId}`)).status).toBe(200);
    expect((await server.get(`/api/rag/search/${knowledgeId}?q=pedidos`)).status).toBe(200);
    expect(embeddingCalls(otherHost).length).toBeGreaterThan(0);
    expect(JSON.stringify(otherHost.requests)).not.toContain('sk-env-embedding');
    expect(JSON.stringify(otherHost.requests)).not.toContain(ENV_KEY);
  });
});

describe('sign-in and e-mail settings', () => {
  it('GOOGLE_CLIENT_ID alone shows the Google button (as the Google route accepts it); the setting wins', async () => {
    const server = await start(environment({ googleClientId: 'env-client.apps.googleusercontent.com' }));
    // What the sign-in page reads from the answer (src/identity/public-options.ts): the button shows for this id.
    const shown = async () => parsePublicOptions((await server.as(null).get('/api/settings/public')).body, fallbackOptions(null)).googleClientId;
    expect((await server.as(null).get('/api/settings/public')).body.googleClientId).toBe('env-client.apps.googleusercontent.com');
    expect(await shown()).toBe('env-client.apps.googleusercontent.com');
    await setSetting(server, 'google.clientId', 'set-client.apps.googleusercontent.com');
    expect((await server.as(null).get('/api/settings/public')).body.googleClientId).toBe('set-client.apps.googleusercontent.com');
    expect(await shown()).toBe('set-client.apps.googleusercontent.com');
    await setSetting(server, 'google.clientId', '');
    expect((await server.as(null).get('/api/settings/public')).body.googleClientId).toBe('env-client.apps.googleusercontent.com');
    expect(await shown()).toBe('env-client.apps.googleusercontent.com');
  });

  it('Google sign-in enabled from Settings alone (no GOOGLE_CLIENT_ID): the sign-in page reads the id, and no button once cleared', async () => {
    const server = await start(environment({}));
    const shown = async () => parsePublicOptions((await server.as(null).get('/api/settings/public')).body, fallbackOptions(null));
    expect(await shown()).toEqual({ registration: false, recovery: true, googleClientId: null });
    await setSetting(server, 'google.clientId', '  only-setting.apps.googleusercontent.com ');
    expect((await shown()).googleClientId).toBe('only-setting.apps.googleusercontent.com');
    await setSetting(server, 'auth.registrationEnabled', true);
    expect((await shown()).registration).toBe(true);
    await setSetting(server, 'google.clientId', '');
    expect((await shown()).googleClientId).toBeNull();
  });
});
