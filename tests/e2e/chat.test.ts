// The public chat in Chromium: a visitor on a phone chats with a bot trained on a small Spanish
// knowledge base (offline provider: no API key, no network), reacts, and the administrator sees
// the trace; the QR page's code is decoded from a screenshot and must point at the chat.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSettled } from './helpers/page-settled.ts';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;
let botId: string;

const KNOWLEDGE_TEXT = [
  'El horario de atención al cliente es de lunes a viernes, de 9:00 a 18:00 horas. Los fines de semana no hay atención telefónica.',
  'Para restablecer la contraseña, abre la página de inicio de sesión y pulsa el enlace "¿Olvidaste tu contraseña?". Recibirás un código por correo electrónico.',
  'Los pedidos se envían en un plazo de 48 horas laborables. El envío es gratuito para compras superiores a 50 euros.',
].join('\n\n');
const QUESTION = '¿Cuál es el horario de atención al cliente?';

beforeAll(async () => {
  app = await startApp();
  const token = await app.apiToken();
  const knowledge = await app.api<{ _id: string }>('POST', '/api/knowledge', { name: 'Soporte', toolDescription: 'Soporte', texts: [{ title: 'Manual de soporte', content: KNOWLEDGE_TEXT }] }, token);
  const trained = await app.api<{ chunks: number }>('GET', `/api/rag/train/${knowledge._id}`, undefined, token);
  expect(trained.chunks).toBeGreaterThan(0);
  const bot = await app.api<{ _id: string }>(
    'POST',
    '/api/bots',
    { name: 'Asistente Forja', description: 'Ayuda con pedidos, envíos y cuentas.', knowledge: knowledge._id, questions: [QUESTION, '¿Cuánto tarda el envío?'] },
    token,
  );
  botId = bot._id;
});

afterAll(async () => {
  await app?.stop();
});

describe('public chat in Chromium', () => {
  it('a visitor on a phone starts a chat, asks a suggested question, gets an answer and reacts', async () => {
    const page = await app.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.webUrl}/chat/${botId}`);
    // Public: no redirect to /login.
    await page.getByRole('heading', { name: 'Asistente Forja' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/chat/${botId}`);

    const start = page.getByRole('button', { name: 'Iniciar chat' });
    const name = page.getByRole('textbox', { name: 'Nombre' });
    const email = page.getByRole('textbox', { name: 'Correo electrónico' });
    expect(await start.isDisabled()).toBe(true);
    await name.fill('A');
    await email.fill('ana@');
    await name.blur();
    await email.blur();
    await page.getByText('El nombre debe tener al menos 2 caracteres.').waitFor();
    await page.getByText('El correo electrónico debe ser válido.').waitFor();
    await name.fill('');
    await page.getByText('El nombre es requerido.').waitFor();
    await email.fill('');
    await page.getByText('El correo electrónico es requerido.').waitFor();
    expect(await start.isDisabled()).toBe(true);
    await app.screenshot(page, 'chat-contact-form-errors');

    await name.fill('Ana García');
    await email.fill('ana@example.com');
    expect(await start.isEnabled()).toBe(true);
    await start.click();
    await page.waitForURL(new RegExp(`/chat/${botId}/[0-9a-f-]{36}$`));
    const conversationId = new URL(page.url()).pathname.split('/').at(-1)!;

    const send = page.getByRole('button', { name: 'Enviar' });
    await page.getByText('Escribe tu primera pregunta.').waitFor();
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Escribe tu mensaje…' }).fill('   ');
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Escribe tu mensaje…' }).fill('');

    // Suggested questions are visible chips until the first message.
    await page.getByTestId('chat-suggestions').getByRole('button', { name: QUESTION }).click();
    const userMessages = page.getByTestId('chat-message-user');
    const botMessages = page.getByTestId('chat-message-assistant');
    await userMessages.first().getByText(QUESTION).waitFor();
    await botMessages.first().getByTestId('chat-message-text').getByText(/lunes a viernes, de 9:00 a 18:00/).waitFor({ timeout: 10_000 }).catch(async (error) => {
      await app.screenshot(page, 'chat-answer-failure');
      throw error;
    });
    // HH:mm beside each message.
    expect(await botMessages.first().locator('time').innerText()).toMatch(/^\d{2}:\d{2}$/);

    // Messages are text, never HTML.
    const injection = '<img src=x onerror="window.__xss=1"> <b>negrita</b>';
    await page.getByRole('textbox', { name: 'Escribe tu mensaje…' }).fill(injection);
    await page.keyboard.press('Enter');
    await userMessages.nth(1).getByText(injection, { exact: true }).waitFor();
    await botMessages.nth(1).waitFor();
    expect(await page.getByTestId('chat-messages').locator('img, b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // React to the first answer with the picker (emoji labelled by enum.Reaction.*).
    await botMessages.first().getByRole('button', { name: 'Reaccionar' }).click();
    for (const label of ['Entusiasmo', 'Me encanta', 'Útil', 'Poco útil', 'Confuso', 'Desagrado', 'Incorrecto']) {
      await page.getByRole('button', { name: label, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Útil', exact: true }).click();
    await botMessages.first().locator('[data-reaction="Helpful"]').waitFor();
    await app.screenshot(page, 'chat-window-phone');

    // The page layout fits the phone: nothing wider than the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Reloading resumes the same conversation from the server.
    await page.reload();
    await botMessages.first().locator('[data-reaction="Helpful"]').waitFor();
    expect(await userMessages.count()).toBe(2);

    // The administrator sees the trace with the reaction and its retrieved fragments.
    const admin = await app.newPage();
    await app.signIn(admin);
    await admin.goto(`${app.webUrl}/crud/bottrace`);
    const row = admin.getByRole('row').filter({ hasText: QUESTION });
    await row.waitFor();
    await row.getByText('Útil').waitFor();
    await row.getByRole('button', { name: 'Ver' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByTestId('trace-fragments').waitFor();
    expect(await dialog.getByTestId('trace-fragment').count()).toBeGreaterThan(0);
    await dialog.getByTestId('trace-fragment').first().getByText(/horario de atención/).waitFor();
    await dialog.getByText('Manual de soporte', { exact: false }).first().waitFor();
    await dialog.getByTestId('trace-fragments').scrollIntoViewIfNeeded();
    await admin.screenshot({ path: 'tests/e2e/screenshots/chat-trace-detail.png' });

    // Bot analytics: the answers and the reaction of this conversation are counted.
    await admin.goto(`${app.webUrl}/analytics`);
    const charts = admin.getByTestId('analytics-charts');
    await charts.getByText('Respuestas por día').waitFor();
    await pageSettled(admin); // the charts' drawing animation over, for the screenshot
    await app.screenshot(admin, 'chat-analytics');

    // The conversation row's chat action resumes the conversation.
    await admin.goto(`${app.webUrl}/crud/conversation`);
    const conversationRow = admin.getByRole('row').filter({ hasText: 'Ana García' });
    await conversationRow.first().waitFor();
    const [resumed] = await Promise.all([admin.context().waitForEvent('page'), conversationRow.first().getByRole('button', { name: 'Abrir chat' }).click()]);
    await resumed.waitForURL(new RegExp(`/chat/${botId}/${conversationId}$`));
    await resumed.getByText(QUESTION).first().waitFor();
  });

  it('a chat that cannot start says why in Spanish, never in the server\'s English', async () => {
    const token = await app.apiToken();
    const bot = await app.api<{ _id: string }>('POST', '/api/bots', { name: 'Bot efímero', description: 'Se borra enseguida.' }, token);
    const page = await app.newPage();
    await page.goto(`${app.webUrl}/chat/${bot._id}`);
    await page.getByRole('heading', { name: 'Bot efímero' }).waitFor();
    // The bot is deleted while the visitor fills in the form.
    await app.api('DELETE', `/api/bots/${bot._id}`, undefined, token);
    await page.getByRole('textbox', { name: 'Nombre' }).fill('Ana García');
    await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('ana@example.com');
    page.expectErrors(/status of 404 \(Not Found\).*\/api\/chat\/start|ApiError/);
    await page.getByRole('button', { name: 'Iniciar chat' }).click();
    const alert = page.getByTestId('chat-start-error');
    await alert.waitFor();
    const text = (await alert.innerText()).trim();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/not found|Bot .* does not exist|error\./i);
    await app.screenshot(page, 'chat-start-failed');
    await page.close();
  });

  it('the QR page shows a scannable code of the chat URL, an open-chat button and the link', async () => {
    const page = await app.newPage({ colorScheme: 'dark' });
    await page.goto(`${app.webUrl}/chat/qr/${botId}`);
    const qr = page.getByTestId('chat-qr');
    await qr.waitFor();
    const expected = `${app.webUrl}/chat/${botId}`;
    await page.getByTestId('chat-qr-link').getByText(expected).waitFor();
    await app.screenshot(page, 'chat-qr-page');

    const png = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
    expect(decoded?.data).toBe(expected);
    const svg = qr.locator('svg');
    expect(await svg.getAttribute('width')).toBe('256');

    await page.getByRole('link', { name: 'Abrir chat' }).click();
    await page.waitForURL(`${app.webUrl}/chat/${botId}`);
    await page.getByRole('button', { name: 'Iniciar chat' }).waitFor();
  });
});
