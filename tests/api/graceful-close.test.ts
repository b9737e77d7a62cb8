import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { qs, startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot, traceFixtures } from './helpers/fixtures.ts';
import { anonymous, parseSse } from './chat-visitor.ts';
import { chunk, fakeLlmEnvironment, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';
import { spawnServer } from '../fuzz/helpers/child-server.ts';
import { TEST_BACKEND } from './helpers/test-database.ts';

/**
 * Closing a server with requests in flight (server/http/graceful-close.ts): the close ends once
 * they end, long-lived streams end at once, and what never ends is cut after the grace period.
 */
let server: TestServer | null = null;
let fake: FakeOpenAiServer | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  fake = null;
});

/** Resolves with the next request the server receives on `path`, as soon as its headers are read. */
function nextRequest(target: TestServer, path: string): Promise<IncomingMessage> {
  return new Promise((resolve) => {
    const listener = (request: IncomingMessage) => {
      if (!request.url?.startsWith(path)) return;
      target.app.server.off('request', listener);
      resolve(request);
    };
    target.app.server.on('request', listener);
  });
}

describe('closing the server with requests in flight', () => {
  it('an export download whose bytes all reached the client before its stream ended: the close ends, its keep-alive connection is not left open', async () => {
    // What export-localized.test.ts hit under load: the client had the whole file (Content-Length)
    // and the test closed the server while the file stream still waited for its end-of-file read.
    server = await startTestServer();
    const fx = await traceFixtures(server);
    await create(server, '/api/bot-traces', { status: fx.ok._id, bot: fx.bot._id, chatId: 'c1', userMessage: 'hola' });
    const exported = await server.get(`/api/bot-traces/export${qs({ format: 'CSV' })}`);
    expect(exported.status, exported.text).toBe(200);

    let endStream: () => void = () => {
      throw new Error('the download did not open its file stream');
    };
    vi.spyOn(fs, 'createReadStream').mockImplementationOnce(((file: fs.PathLike) => {
      const stream = new Readable({ read() {} });
      stream.push(fs.readFileSync(file));
      endStream = () => stream.push(null);
      return stream;
    }) as typeof fs.createReadStream);
    const download = await fetch(server.baseUrl + exported.body.url);
    expect(download.status).toBe(200);
    const text = await download.text();
    expect(text).toContain('hola');

    // The stream ends just after Node's server.close() has closed the connections idle then.
    const httpServer = server.app.server;
    const closeHttpServer = httpServer.close.bind(httpServer);
    vi.spyOn(httpServer, 'close').mockImplementationOnce((callback) => {
      closeHttpServer(callback);
      endStream();
      return httpServer;
    });
    await server.app.close();
    // Closed by the server once the response ended, not dropped after the grace period.
    expect(server.forja.shutdown.cut).toEqual({ requests: [], connections: 0 });
    await server.close();
  }, 60_000);

  it('a chat answer streaming from a model that never finishes: the stream ends with an error event and the close ends', async () => {
    fake = await startFakeOpenAiServer();
    let upstreamOpen: () => void = () => {};
    const upstream = new Promise<void>((resolve) => (upstreamOpen = resolve));
    // One delta, then the model goes silent (the connection stays open). The delta is long enough
    // not to be held back as a possible "no information" reply (hold-until-answer.ts).
    const first = 'Un momento, estoy buscando en la documentación de la tienda los plazos de entrega y las condiciones de devolución que se aplican a tu pedido.';
    fake.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify(chunk(first))}\n\n`);
      upstreamOpen();
    });
    server = await startTestServer({ env: fakeLlmEnvironment(fake) });
    const botId = (await create(server, '/api/bots', minimalBot('Lento')))._id;
    const started = await anonymous(server.baseUrl).post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId });
    expect(started.status, started.text).toBe(201);

    const stream = await fetch(`${server.baseUrl}/api/chat/message/${started.body._id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '¿Hay alguien?' }),
    });
    expect(stream.status).toBe(200);
    // The stream opens at once (headers flushed); close the server once the first delta is out.
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (done: (soFar: string) => boolean) => {
      while (!done(text)) {
        const chunk = await reader.read();
        if (chunk.done) return;
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    await upstream;
    await readUntil((soFar) => soFar.includes('event: delta'));

    await server.app.close();
    await readUntil(() => false);
    const events = parseSse(text);
    expect(events[0]).toEqual({ event: 'delta', data: { text: first } });
    expect(events.at(-1)?.event).toBe('error');
    expect(server.forja.shutdown.cut).toEqual({ requests: [], connections: 0 });
    await server.close();
  }, 60_000);

  it('a request that never ends is cut after the grace period: its connection is dropped and it is reported', async () => {
    server = await startTestServer({ shutdownGraceMs: 200 });
    const arrived = nextRequest(server, '/api/bots');
    // A body announced as 100 bytes of which 10 arrive: the request waits for the rest for ever.
    const socket = net.connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    socket.write(
      `POST /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.admin.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name": "',
    );
    await arrived;

    await server.app.close();
    await socketClosed;
    expect(server.forja.shutdown.cut.requests).toEqual([{ method: 'POST', url: '/api/bots', elapsedMs: expect.any(Number) }]);
    expect(server.forja.shutdown.cut.connections).toBeGreaterThanOrEqual(1);
    await server.close({ expectCut: true });
  }, 60_000);

  // The process entry point (server/main.ts): engine-independent, run once in the SQLite project.
  it.skipIf(TEST_BACKEND === 'postgres')('SIGTERM with a request that never ends: the process exits cleanly after SHUTDOWN_GRACE_MS and logs what it cut', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-sigterm-'));
    try {
      const child = await spawnServer({ dataDir, env: { SHUTDOWN_GRACE_MS: '300', LOG_LEVEL: 'info' } });
      const socket = net.connect(child.port, '127.0.0.1');
      const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      // Node answers "100 Continue" once it has read the headers: from then on the request is in flight.
      const headersRead = new Promise<void>((resolve) => socket.on('data', (data: Buffer) => data.toString().includes('100 Continue') && resolve()));
      socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
      await headersRead;
      socket.write('{"username": "');

      expect(await child.kill('SIGTERM')).toBe(0);
      await socketClosed;
      const log = child.output();
      expect(log).toContain('shutting down');
      expect(log).toMatch(/shutdown: 1 connection\(s\) still open after the grace period \(1 request\(s\) unfinished\); dropped/);
      expect(log).toContain('"url":"/api/auth/login"');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
