import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, minimalBot } from './helpers/fixtures.ts';
import { anonymous, type Visitor } from './chat-visitor.ts';

/**
 * Allowed origins per bot (issue 20 item 2): chat start and messages from a browser page whose
 * Origin is not on the bot's list get 403; an empty list allows any; a request without Origin is a
 * non-browser client and is allowed (it could send any Origin anyway). Chat pages get the list as
 * frame-ancestors. /widget.js is served for other sites.
 */
let server: TestServer;
let visitor: Visitor;
let guarded: any;
let open: any;
const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';

beforeAll(async () => {
  const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forja-dist-'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Forja</title>');
  server = await startTestServer({ distDir, env: { CHAT_RATE_START_PER_MINUTE: '1000', CHAT_RATE_MESSAGE_PER_MINUTE: '1000', CHAT_RATE_READ_PER_MINUTE: '1000' } });
  visitor = anonymous(server.baseUrl);
  guarded = await create(server, '/api/bots', minimalBot('Con orígenes', { allowedOrigins: [SHOP, 'http://localhost:8080'] }));
  open = await create(server, '/api/bots', minimalBot('Abierto'));
});
afterAll(async () => server?.close());

const start = (botId: string, headers: Record<string, string> = {}) =>
  visitor.post('/api/chat/start', { name: 'Eva', email: 'eva@example.com', botId }, headers);

describe('allowed origins', () => {
  it('lets a listed origin start and chat', async () => {
    const started = await start(guarded._id, { origin: SHOP });
    expect(started.status, started.text).toBe(201);
    const said = await visitor.post(`/api/chat/message/${started.body._id}`, { message: 'Hola' }, { origin: SHOP });
    expect(said.status, said.text).toBe(200);
    // Origins compare as origins: case and a default port do not matter.
    expect((await start(guarded._id, { origin: 'HTTPS://Shop.Example:443' })).status).toBe(201);
  });

  it('refuses any other origin with 403 and a clear error, and stores nothing', async () => {
    const refused = await start(guarded._id, { origin: EVIL });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: expect.stringContaining('https://evil.example'), i18nMessage: 'chat.error.originNotAllowed' });
    expect(refused.body.message).toContain('allowed origins');

    const started = await start(guarded._id, { origin: SHOP });
    for (const url of [`/api/chat/message/${started.body._id}`, `/api/chat/message/${started.body._id}/stream`]) {
      const res = await visitor.post(url, { message: 'Hola' }, { origin: EVIL });
      expect(res.status, url).toBe(403);
    }
    expect((await visitor.get(`/api/chat/conversation/${started.body._id}`, { origin: EVIL })).status).toBe(403);
    expect((await visitor.get(`/api/chat/bot/${guarded._id}`, { origin: server.baseUrl, 'x-forja-embedder': EVIL })).status).toBe(403);
    expect((await visitor.post(`/api/chat/verify/${started.body._id}/code`, {}, { origin: EVIL })).status).toBe(403);
    const after = await visitor.get(`/api/chat/conversation/${started.body._id}`);
    expect(after.body.chats).toEqual([]);
    // A browser page at "null" (sandboxed, file:) is not on any list either.
    expect((await start(guarded._id, { origin: 'null' })).status).toBe(403);
  });

  it('allows requests without Origin (non-browser clients) and from Forja itself (the chat page and its iframe)', async () => {
    expect((await start(guarded._id)).status).toBe(201);
    expect((await start(guarded._id, { origin: server.baseUrl })).status).toBe(201);
  });

  it('answers the widget\'s bot request readably from any site: the look for a listed one, a 403 saying why for others', async () => {
    for (const origin of [SHOP, 'http://localhost:8080']) {
      const res = await fetch(`${server.baseUrl}/api/chat/bot/${guarded._id}`, { headers: { origin } });
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toMatchObject({ _id: guarded._id, widgetColor: '#228be6', widgetPosition: 'right', widgetTheme: 'auto' });
    }
    for (const origin of [EVIL, 'null', 'http://shop.example', 'https://shop.example.evil.example']) {
      const res = await fetch(`${server.baseUrl}/api/chat/bot/${guarded._id}`, { headers: { origin } });
      expect(res.status, origin).toBe(403);
      // Readable by the widget's script on that page, so it can log why there is no chat.
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = await res.json();
      expect(body.i18nMessage).toBe('chat.error.originNotAllowed');
      expect(body.message).toContain('allowed origins');
      expect(body).not.toHaveProperty('widgetColor');
    }
    // Any site may embed a bot without a list.
    const res = await fetch(`${server.baseUrl}/api/chat/bot/${open._id}`, { headers: { origin: EVIL } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // No other chat route is readable cross-origin.
    const started = await fetch(`${server.baseUrl}/api/chat/start`, { method: 'POST', headers: { origin: EVIL, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Eva', email: 'eva@example.com', botId: open._id }) });
    expect(started.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses the chat page inside the widget when the embedding page is not listed', async () => {
    const refused = await start(guarded._id, { origin: server.baseUrl, 'x-forja-embedder': EVIL });
    expect(refused.status).toBe(403);
    expect(refused.body.i18nMessage).toBe('chat.error.originNotAllowed');
    expect((await start(guarded._id, { origin: server.baseUrl, 'x-forja-embedder': SHOP })).status).toBe(201);
  });

  it('allows any origin when the list is empty', async () => {
    const started = await start(open._id, { origin: EVIL, 'x-forja-embedder': EVIL });
    expect(started.status, started.text).toBe(201);
    expect((await visitor.post(`/api/chat/message/${started.body._id}`, { message: 'Hola' }, { origin: EVIL })).status).toBe(200);
  });

  it('accepts only origins in the bot form (no path, no other scheme), at most 50', async () => {
    for (const bad of ['https://shop.example/', 'https://shop.example/path', 'ftp://shop.example', 'shop.example', '*']) {
      const res = await server.post('/api/bots', minimalBot('Mal', { allowedOrigins: [bad] }));
      expect(res.status, bad).toBe(400);
      expect(res.body.inputErrors[0].field).toMatch(/^allowedOrigins/);
    }
    const many = await server.post('/api/bots', minimalBot('Muchos', { allowedOrigins: Array.from({ length: 51 }, (_, i) => `https://s${i}.example`) }));
    expect(many.status).toBe(400);
  });
});

describe('frame-ancestors of the chat pages', () => {
  const page = (url: string) => fetch(server.baseUrl + url, { headers: { accept: 'text/html' } });
  const frameAncestors = (res: Response) => /frame-ancestors ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

  it('lets the allowed origins frame a bot with a list, and nobody else', async () => {
    for (const url of [`/chat/${guarded._id}`, `/chat/${guarded._id}?embed=1`, `/chat/${guarded._id}/some-conversation`]) {
      const res = await page(url);
      expect(res.status).toBe(200);
      expect(frameAncestors(res), url).toBe(`'self' ${SHOP} http://localhost:8080`);
      expect(res.headers.get('x-frame-options')).toBeNull();
    }
  });

  it('lets any site frame a bot without a list', async () => {
    expect(frameAncestors(await page(`/chat/${open._id}`))).toBe("'self' https: http:");
  });

  it("keeps 'self' everywhere else: the QR page, the console, unknown bots", async () => {
    for (const url of [`/chat/qr/${open._id}`, '/crud/bot', '/chat/unknown-bot']) {
      const res = await page(url);
      expect(frameAncestors(res), url).toBe("'self'");
      expect(res.headers.get('x-frame-options'), url).toBe('SAMEORIGIN');
    }
  });
});

describe('/widget.js', () => {
  it('is served as a small plain script other sites may load', async () => {
    const res = await fetch(`${server.baseUrl}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const text = await res.text();
    expect(text).toContain("getAttribute('data-bot')");
    expect(text).toContain('/chat/');
    expect(text.length).toBeLessThan(8 * 1024);
    expect(() => new Function(text)).not.toThrow();
  });
});
