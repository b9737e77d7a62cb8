// Stored XSS: records whose every free-text field holds a script payload, created through the API,
// are shown in the console's CRUD pages and dialogs and in the public chat; nothing may execute
// (window.__xss stays undefined, no alert/confirm dialog fires, no page error).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSettled } from './helpers/page-settled.ts';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

const PAYLOADS = [
  `<img src=x onerror="window.__xss=1">`,
  `<script>window.__xss=1</script>`,
  `"><svg onload="window.__xss=1">`,
  `javascript:window.__xss=1`,
  `<a href="javascript:window.__xss=1">x</a>{{constructor.constructor('window.__xss=1')()}}`,
];
const p = (i: number, label: string) => `${label} ${PAYLOADS[i % PAYLOADS.length]}`;

let app: AppUnderTest;
let botId: string;
let token: string;

async function api<T = any>(method: string, path: string, body?: unknown, auth: string | undefined = token): Promise<T> {
  return app.api<T>(method, path, body, auth);
}

async function xssFired(page: Page & { errors: string[] }, dialogs: string[]): Promise<unknown> {
  await pageSettled(page);
  return { xss: await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), dialogs: [...dialogs] };
}

async function hostilePage(): Promise<{ page: Page & { errors: string[] }; dialogs: string[] }> {
  const page = await app.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, dialogs };
}

beforeAll(async () => {
  app = await startApp();
  token = await app.apiToken();
  const knowledge = await api('POST', '/api/knowledge', {
    name: p(0, 'Saber'),
    toolDescription: p(1, 'Herramienta'),
    texts: [{ title: p(2, 'Título'), content: `El horario es de 9 a 18. ${PAYLOADS.join(' ')}` }],
  });
  await api('GET', `/api/rag/train/${knowledge._id}`);
  const bot = await api('POST', '/api/bots', {
    name: p(0, 'Bot'),
    description: p(1, 'Descripción'),
    knowledge: knowledge._id,
    questions: PAYLOADS.map((x, i) => `¿Pregunta ${i}? ${x}`),
    systemPrompt: p(3, 'Prompt'),
  });
  botId = bot._id;
  await api('POST', '/api/contacts', { name: p(1, 'Contacto'), email: 'xss@example.com' });
  await api('POST', '/api/bot-trace-statuses', { name: p(0, 'Estado'), description: p(2, 'Desc') });
  // A conversation, contact and traces whose messages are payloads, through the public chat.
  const started = await api('POST', '/api/chat/start', { name: p(0, 'Visitante'), email: 'visitor-xss@example.com', botId }, undefined);
  for (const payload of PAYLOADS) await api('POST', `/api/chat/message/${started._id}`, { message: `¿Horario? ${payload}` }, undefined);
}, 240_000);

afterAll(async () => {
  await app?.stop();
});

describe('stored XSS does not execute', () => {
  it('in the console: CRUD tables, view and edit dialogs', async () => {
    const { page, dialogs } = await hostilePage();
    await page.goto(`${app.webUrl}/login`);
    await app.signIn(page);
    const visited: string[] = [];
    for (const path of ['/crud/bot', '/crud/contact', '/crud/conversation', '/crud/bottrace', '/crud/bottracestatus', '/crud/knowledge', '/crud/knowledgesource']) {
      await page.goto(`${app.webUrl}${path}`);
      await page.getByRole('table').first().waitFor();
      expect(await xssFired(page, dialogs), path).toEqual({ xss: undefined, dialogs: [] });
      for (const action of ['Ver', 'Editar']) {
        const button = page.getByRole('button', { name: action, exact: true }).first();
        if ((await button.count()) === 0) continue;
        await button.click();
        await page.getByRole('dialog').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
        expect(await xssFired(page, dialogs), `${path} ${action}`).toEqual({ xss: undefined, dialogs: [] });
        visited.push(`${path} ${action}`);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').first().waitFor({ state: 'detached' });
      }
      visited.push(path);
    }
    console.log(`[xss] console screens checked: ${visited.join(', ')}`);
    await app.screenshot(page, 'xss-console-last');
    expect(visited.length).toBeGreaterThan(7);
  }, 180_000);

  it('in the public chat: bot name, questions, and messages (the visitor\'s and the answers)', async () => {
    const { page, dialogs } = await hostilePage();
    await page.goto(`${app.webUrl}/chat/${botId}`);
    expect(await xssFired(page, dialogs)).toEqual({ xss: undefined, dialogs: [] });
    // The contact form first (the bot's name above it is a payload), then the chat itself.
    await page.getByRole('textbox', { name: 'Nombre' }).fill(p(2, 'Visitante'));
    await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('xss-visitor@example.com');
    await page.getByRole('button', { name: 'Iniciar chat' }).click();
    const input = page.getByRole('textbox', { name: 'Escribe tu mensaje…' });
    await input.waitFor();
    for (const [index, payload] of PAYLOADS.slice(0, 3).entries()) {
      await input.fill(`¿Horario? ${payload}`);
      await input.press('Enter');
      // The visitor's message and the bot's answer to it are on the page.
      await page.getByTestId('chat-message-assistant').nth(index).waitFor({ timeout: 30_000 });
      expect(await xssFired(page, dialogs), `message ${index}`).toEqual({ xss: undefined, dialogs: [] });
    }
    expect(await page.getByTestId('chat-message-user').count()).toBe(3);
    await app.screenshot(page, 'xss-chat');
    const body = await page.locator('body').innerText();
    console.log(`[xss] chat shows payloads as text: ${body.includes('<img src=x onerror')}`);
    expect(await xssFired(page, dialogs)).toEqual({ xss: undefined, dialogs: [] });
  }, 120_000);
});
