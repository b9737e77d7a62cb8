// Issue 28 item 5, in Chromium on the built console with the server's CSP: a failed answer offers
// "Reintentar" and retrying the same question gets the answer (in the failed exchange's place); the bot's colour themes the chat
// header and its light/dark setting wins over the visitor's browser (auto follows it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';
import { chunk, fakeLlmEnvironment, json, sse, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/llm/fake-openai-server.ts';

let app: AppUnderTest;
let fake: FakeOpenAiServer;
const bots: Record<'dark' | 'light' | 'auto', string> = { dark: '', light: '', auto: '' };
const QUESTION = '¿Hacéis envíos a Canarias los fines de semana?';
const ANSWER = 'Sí, enviamos a Canarias de lunes a sábado; los pedidos del fin de semana salen el lunes siguiente con seguimiento por correo.';

beforeAll(async () => {
  fake = await startFakeOpenAiServer();
  app = await startApp({ env: fakeLlmEnvironment(fake) });
  const token = await app.apiToken();
  for (const [theme, color] of [['dark', '#e8590c'], ['light', '#fab005'], ['auto', '#1864ab']] as const) {
    bots[theme] = (await app.api<{ _id: string }>('POST', '/api/bots', { name: `Bot ${theme}`, description: 'Envíos.', widgetColor: color, widgetTheme: theme }, token))._id;
  }
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

async function startChat(page: Awaited<ReturnType<AppUnderTest['newPage']>>, botId: string) {
  await page.goto(`${app.webUrl}/chat/${botId}`);
  await page.getByRole('textbox', { name: 'Nombre' }).fill('Lucía Pérez');
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('lucia@example.com');
  await page.getByRole('button', { name: 'Iniciar chat' }).click();
  await page.getByRole('textbox', { name: 'Escribe tu mensaje' }).waitFor();
}

describe('visitor side', () => {
  it('a failed answer offers Reintentar, which asks the same question again', async () => {
    const page = await app.newPage({ colorScheme: 'light' });
    // The failed stream is logged by the page (chat message failed) and Chromium notes nothing else.
    page.expectErrors(/chat message failed|chat\.error|502/i);
    fake.handle((_req, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } }));
    await startChat(page, bots.auto);
    const input = page.getByRole('textbox', { name: 'Escribe tu mensaje' });
    await input.fill(QUESTION);
    await input.press('Enter');
    await page.getByTestId('chat-retry').waitFor();
    await page.getByTestId('chat-message-assistant').getByText(/ahora mismo no puedo responder/).waitFor();

    fake.handle((_req, res) => sse(res, [...ANSWER.split(/(?<= )/).map((part) => chunk(part)), chunk(null, { prompt_tokens: 40, completion_tokens: 30 })]));
    await page.getByTestId('chat-retry').click();
    await page.getByTestId('chat-message-assistant').last().getByText(ANSWER).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('chat-retry').count()).toBe(0);
    // The same question went to the model the second time, without the failed exchange as history.
    const last = fake.requests.at(-1)!;
    expect(last.body.messages.at(-1)).toEqual({ role: 'user', content: QUESTION });
    expect(JSON.stringify(last.body.messages)).not.toContain('ahora mismo no puedo responder');
    // The retry took the failed exchange's place: the question once, the failure answer gone.
    const questions = page.getByTestId('chat-message-user');
    expect(await questions.allInnerTexts()).toEqual([expect.stringContaining(QUESTION)]);
    expect(await page.getByTestId('chat-message-assistant').getByText(/ahora mismo no puedo responder/).count()).toBe(0);
  }, 90_000);

  it('the bot\'s colour is the header\'s, and its light or dark setting wins over the browser (auto follows it)', async () => {
    const cases = [
      { bot: bots.dark, browser: 'light', scheme: 'dark', background: 'rgb(232, 89, 12)', ink: 'rgb(0, 0, 0)' },
      { bot: bots.light, browser: 'dark', scheme: 'light', background: 'rgb(250, 176, 5)', ink: 'rgb(0, 0, 0)' },
      { bot: bots.auto, browser: 'dark', scheme: 'dark', background: 'rgb(24, 100, 171)', ink: 'rgb(255, 255, 255)' },
      { bot: bots.auto, browser: 'light', scheme: 'light', background: 'rgb(24, 100, 171)', ink: 'rgb(255, 255, 255)' },
    ] as const;
    for (const item of cases) {
      const page = await app.newPage({ colorScheme: item.browser });
      await page.goto(`${app.webUrl}/chat/${item.bot}`);
      const header = page.getByTestId('chat-header');
      await header.waitFor();
      await page.waitForFunction((scheme) => document.documentElement.getAttribute('data-mantine-color-scheme') === scheme, item.scheme);
      expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(item.background);
      expect(await header.getByRole('heading').evaluate((el) => getComputedStyle(el).color)).toBe(item.ink);
      const body = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      // Mantine's dark body is dark grey, its light body white.
      expect(body === 'rgb(255, 255, 255)', `${item.bot} in a ${item.browser} browser`).toBe(item.scheme === 'light');
      await page.close();
    }
  }, 90_000);
});
