// The embeddable widget (issue 20): a shop page on a second local origin loads /widget.js with one
// script tag; the launcher takes the bot's colour, opens the chat in an iframe from Forja, the
// visitor chats and opens the answer's sources. A page on an origin the bot does not allow gets no
// chat. Phone screenshots of the chat page itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;
let shop: http.Server;
let shopOrigin: string;
let allowedBot: string;
let refusedBot: string;

const QUESTION = '¿Cuánto tarda el envío de un pedido?';
const COLOR = '#e8590c';

beforeAll(async () => {
  app = await startApp();
  const token = await app.apiToken();
  const knowledge = await app.api<{ _id: string }>('POST', '/api/knowledge', {
    name: 'Tienda', toolDescription: 'Tienda',
    texts: [{ title: 'Envíos', content: 'Los pedidos se envían en un plazo de 48 horas laborables. El envío es gratuito para compras superiores a 50 euros.' }],
  }, token);
  await app.api('GET', `/api/rag/train/${knowledge._id}`, undefined, token);

  // The shop: a tiny server on another port (another origin), one script tag per page.
  shop = http.createServer((request, response) => {
    const bot = request.url === '/refused' ? refusedBot : allowedBot;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="es"><head><title>Tienda</title></head><body><h1>Tienda de prueba</h1><p>Contenido de la tienda.</p><script src="${app.webUrl}/widget.js" data-bot="${bot}" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;

  allowedBot = (await app.api<{ _id: string }>('POST', '/api/bots', {
    name: 'Tienda Bot', description: 'Ayuda con envíos.', knowledge: knowledge._id, questions: [QUESTION],
    welcomeMessage: '¡Hola! Pregúntame por los envíos.', widgetTitle: 'Ayuda de la tienda', widgetColor: COLOR, widgetPosition: 'left',
    allowedOrigins: [shopOrigin],
  }, token))._id;
  refusedBot = (await app.api<{ _id: string }>('POST', '/api/bots', {
    name: 'Solo otra web', description: 'Solo en otra web.', allowedOrigins: ['https://elsewhere.example'],
  }, token))._id;
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => shop?.close(resolve));
});

describe('widget on another origin', () => {
  it('opens from the launcher, chats, and shows the answer\'s sources', async () => {
    const page = await app.newPage({ colorScheme: 'light' });
    await page.goto(`${shopOrigin}/`);
    const launcher = page.locator('[data-forja-widget="launcher"][data-ready="true"]');
    await launcher.waitFor({ timeout: 30_000 });
    expect(await launcher.getAttribute('aria-label')).toBe('Ayuda de la tienda');
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(232, 89, 12)');
    // Position left, from the bot.
    expect(await launcher.evaluate((el) => el.getBoundingClientRect().left)).toBeLessThan(100);
    await launcher.click();

    const frame = page.frameLocator('iframe[data-forja-widget="frame"]');
    await frame.getByTestId('chat-welcome').getByText('¡Hola! Pregúntame por los envíos.').waitFor();
    await frame.getByTestId('chat-consent').getByRole('link', { name: 'política de privacidad' }).waitFor();
    await frame.getByRole('textbox', { name: 'Nombre' }).fill('Lucía Pérez');
    await frame.getByRole('textbox', { name: 'Correo electrónico' }).fill('lucia@example.com');
    await frame.getByRole('button', { name: 'Iniciar chat' }).click();
    await frame.getByTestId('chat-suggestions').getByRole('button', { name: QUESTION }).click();
    const answer = frame.getByTestId('chat-message-assistant').first();
    await answer.getByTestId('chat-message-text').getByText(/48 horas laborables/).waitFor({ timeout: 20_000 });
    await answer.getByRole('button', { name: 'Fuentes (1)' }).click();
    await answer.getByTestId('chat-citation').getByText('Envíos').waitFor();
    await answer.getByTestId('chat-citation').getByText(/48 horas laborables/).waitFor();
    await app.screenshot(page, 'widget-open-desktop', { fullPage: false });

    // The close button in the chat folds the panel back into the launcher.
    await frame.getByRole('button', { name: 'Cerrar chat' }).click();
    await page.locator('iframe[data-forja-widget="frame"]').waitFor({ state: 'hidden' });

    // A returning visitor (same browser) resumes the conversation instead of a new form.
    await page.reload();
    await page.locator('[data-forja-widget="launcher"][data-ready="true"]').click();
    await page.frameLocator('iframe[data-forja-widget="frame"]').getByTestId('chat-message-assistant').first().getByTestId('chat-message-text').getByText(/48 horas laborables/).waitFor({ timeout: 20_000 });
  }, 120_000);

  it('fills a phone screen', async () => {
    const page = await app.newPage({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${shopOrigin}/`);
    await page.locator('[data-forja-widget="launcher"][data-ready="true"]').click();
    const iframe = page.locator('iframe[data-forja-widget="frame"]');
    await page.frameLocator('iframe[data-forja-widget="frame"]').getByRole('button', { name: 'Iniciar chat' }).waitFor();
    const box = await iframe.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    await app.screenshot(page, 'widget-open-phone', { fullPage: false });
    // Covering the whole phone, the chat offers its own close; the launcher comes back.
    await page.frameLocator('iframe[data-forja-widget="frame"]').getByRole('button', { name: 'Cerrar chat' }).click();
    await iframe.waitFor({ state: 'hidden' });
    await page.locator('[data-forja-widget="launcher"]').waitFor({ state: 'visible' });
  }, 60_000);

  it('shows no launcher on a page whose origin the bot does not allow, and says why in the console', async () => {
    const page = await app.newPage({ colorScheme: 'light' });
    // The widget's own explanation, and Chromium's line for the refused (403) request.
    page.expectErrors(/not in the allowed origins|403/i);
    const explained = page.waitForEvent('console', (message) => message.type() === 'error' && message.text().includes('not in the allowed origins'));
    await page.goto(`${shopOrigin}/refused`);
    const message = (await explained).text();
    expect(message).toContain(shopOrigin);
    expect(message).toContain(refusedBot);
    // Nothing of the widget on the page: no launcher, no frame (so no frame the browser refuses to show).
    expect(await page.locator('[data-forja-widget]').count()).toBe(0);
    expect(page.frames().some((f) => f.url().includes(`/chat/${refusedBot}`))).toBe(false);
    await page.getByRole('heading', { name: 'Tienda de prueba' }).waitFor();
    // And the chat API refuses that origin outright (what a page there would get calling it directly).
    const res = await fetch(`${app.apiUrl}/api/chat/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shopOrigin },
      body: JSON.stringify({ name: 'Lucía', email: 'lucia@example.com', botId: refusedBot }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).i18nMessage).toBe('chat.error.originNotAllowed');
  }, 60_000);
});

describe('chat page on a phone', () => {
  it('uses the full height, shows the welcome, the consent line and the suggestion chips', async () => {
    const page = await app.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.webUrl}/chat/${allowedBot}`);
    await page.getByTestId('chat-welcome').waitFor();
    await page.getByTestId('chat-consent').waitFor();
    await app.screenshot(page, 'chat-phone-contact-form', { fullPage: false });
    await page.getByRole('textbox', { name: 'Nombre' }).fill('Marta Ruiz');
    await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('marta@example.com');
    await page.getByRole('button', { name: 'Iniciar chat' }).click();
    await page.getByTestId('chat-suggestions').waitFor();
    const card = await page.locator('main .mantine-Card-root').boundingBox();
    expect(card?.height).toBeGreaterThanOrEqual(840);
    await app.screenshot(page, 'chat-phone-window', { fullPage: false });
    await page.getByTestId('chat-suggestions').getByRole('button', { name: QUESTION }).click();
    await page.getByTestId('chat-message-assistant').first().getByTestId('chat-message-text').getByText(/48 horas laborables/).waitFor({ timeout: 20_000 });
    await app.screenshot(page, 'chat-phone-answer', { fullPage: false });
  }, 60_000);
});

describe('bot form', () => {
  it('shows the chat link, its QR code and the widget snippet to copy', async () => {
    const admin = await app.newPage();
    await app.signIn(admin);
    await admin.goto(`${app.webUrl}/crud/bot`);
    const row = admin.getByRole('row').filter({ hasText: 'Tienda Bot' });
    await row.getByRole('button', { name: 'Editar' }).click();
    const dialog = admin.getByRole('dialog');
    const snippet = dialog.getByTestId('bot-embed-snippet');
    await snippet.waitFor();
    expect(await snippet.innerText()).toBe(`<script src="${app.webUrl}/widget.js" data-bot="${allowedBot}" async></script>`);
    expect(await dialog.getByTestId('bot-embed-link').innerText()).toBe(`${app.webUrl}/chat/${allowedBot}`);
    await dialog.getByRole('button', { name: 'QR', exact: true }).click();
    await dialog.locator('svg title').filter({ hasText: `/chat/${allowedBot}` }).waitFor({ state: 'attached' });
    await dialog.getByRole('button', { name: 'Copiar' }).waitFor();
    await snippet.scrollIntoViewIfNeeded();
    await app.screenshot(admin, 'bot-form-embed', { fullPage: false });
  }, 60_000);
});
