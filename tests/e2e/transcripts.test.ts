// What an administrator reads after visitors chatted, on the production build: a visitor asks one
// question the knowledge base answers and one it cannot; the conversation opens as a transcript
// (bubbles, reaction, fragments, status) linking to its trace, which opens read-only; analytics
// counts and lists the unanswered question with an "add to knowledge" link to the bot's base.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppUnderTest } from './helpers/app-under-test.ts';

let app: AppUnderTest;
let botId: string;
let knowledgeId: string;

const KNOWLEDGE_TEXT = [
  'El horario de atención al cliente es de lunes a viernes, de 9:00 a 18:00 horas. Los fines de semana no hay atención telefónica.',
  'Los pedidos se envían en un plazo de 48 horas laborables. El envío es gratuito para compras superiores a 50 euros.',
].join('\n\n');
const ANSWERED = '¿Cuál es el horario de atención al cliente?';
const UNANSWERED = 'Zorglub wibble frobnicate quux?';
const VISITOR = 'Rosa Transcripción';

beforeAll(async () => {
  app = await startApp();
  const token = await app.apiToken();
  const knowledge = await app.api<{ _id: string }>('POST', '/api/knowledge', { name: 'Atención', toolDescription: 'Atención', texts: [{ title: 'Horario', content: KNOWLEDGE_TEXT }] }, token);
  knowledgeId = knowledge._id;
  const trained = await app.api<{ chunks: number }>('GET', `/api/rag/train/${knowledgeId}`, undefined, token);
  expect(trained.chunks).toBeGreaterThan(0);
  const bot = await app.api<{ _id: string }>('POST', '/api/bots', { name: 'Bot Transcripciones', description: 'Atención al cliente.', knowledge: knowledgeId }, token);
  botId = bot._id;
}, 240_000);

afterAll(async () => {
  await app?.stop();
});

describe('transcripts and unanswered questions', () => {
  it('a visitor chats; the admin reads the transcript, opens the answer\'s read-only trace and finds the unanswered question in analytics', async () => {
    const visitor = await app.newPage();
    await visitor.goto(`${app.webUrl}/chat/${botId}`);
    await visitor.getByRole('textbox', { name: 'Nombre' }).fill(VISITOR);
    await visitor.getByRole('textbox', { name: 'Correo electrónico' }).fill('rosa@example.com');
    await visitor.getByRole('button', { name: 'Iniciar chat' }).click();
    await visitor.waitForURL(new RegExp(`/chat/${botId}/[0-9a-f-]{36}$`));
    const input = visitor.getByRole('textbox', { name: 'Escribe tu mensaje…' });
    const answers = visitor.getByTestId('chat-message-assistant');
    await input.fill(ANSWERED);
    await visitor.keyboard.press('Enter');
    await answers.first().getByText(/lunes a viernes/).first().waitFor({ timeout: 20_000 });
    await answers.first().getByRole('button', { name: 'Reaccionar' }).click();
    await visitor.getByRole('button', { name: 'Útil', exact: true }).click();
    await answers.first().locator('[data-reaction="Helpful"]').waitFor();
    await input.fill(UNANSWERED);
    await visitor.keyboard.press('Enter');
    await answers.nth(1).waitFor({ timeout: 20_000 });
    await visitor.close();

    const page = await app.newPage();
    await app.signIn(page);
    await page.goto(`${app.webUrl}/crud/conversation`);
    await page.getByRole('row', { name: new RegExp(VISITOR) }).getByRole('button', { name: 'Ver' }).click();
    const dialog = page.getByRole('dialog');
    const transcript = dialog.getByTestId('conversation-transcript');
    await transcript.getByText(VISITOR).waitFor();
    const bubbles = transcript.getByTestId('transcript-user');
    await bubbles.first().getByText(ANSWERED).waitFor();
    await bubbles.nth(1).getByText(UNANSWERED).waitFor();
    const botBubbles = transcript.getByTestId('transcript-assistant');
    await botBubbles.first().getByTestId('transcript-reaction').getByText('Útil').waitFor();
    await botBubbles.first().getByTestId('transcript-status').getByText('Respondida').waitFor();
    await botBubbles.nth(1).getByTestId('transcript-status').getByText('Sin respuesta').waitFor();
    // The answered question's fragments, folded until asked for.
    await botBubbles.first().getByRole('button', { name: /Ver \d+ fragmentos? recuperados?/ }).click();
    await botBubbles.first().getByTestId('transcript-fragments').getByText(/lunes a viernes/).first().waitFor();
    expect(await dialog.locator('input, textarea').count()).toBe(0);
    await app.screenshot(page, 'transcript-view', { fullPage: false });

    // The trace link opens the trace's view dialog; traces offer no writes in the console.
    await botBubbles.first().getByTestId('transcript-trace-link').click();
    await page.waitForURL(/\/crud\/bottrace\?view=/);
    await page.getByRole('dialog').getByRole('heading', { name: 'Ver Traza del bot' }).waitFor();
    await expect
      .poll(() => page.getByRole('dialog').evaluate((node, text) => node.textContent!.includes(text) || [...node.querySelectorAll('input, textarea')].some((input) => (input as HTMLInputElement).value.includes(text)), ANSWERED), { timeout: 20_000 })
      .toBe(true)
      .catch(async (error) => {
        await app.screenshot(page, 'transcript-trace-view-failure', { fullPage: false });
        throw error;
      });
    await app.screenshot(page, 'transcript-trace-view', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: 'Cerrar', exact: true }).last().click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Crear' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Importar' }).count()).toBe(0);
    const traceRow = page.getByRole('row', { name: new RegExp(ANSWERED.slice(0, 20).replace(/[?¿]/g, '.')) }).first();
    await traceRow.getByRole('button', { name: 'Ver' }).waitFor();
    expect(await traceRow.getByRole('button', { name: 'Editar' }).count()).toBe(0);
    expect(await traceRow.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);

    // Analytics: the figure and the list, each question with "add to knowledge" on the bot's base.
    await page.goto(`${app.webUrl}/analytics`);
    const list = page.getByTestId('unanswered-questions');
    const row = list.getByTestId('unanswered-question').filter({ hasText: UNANSWERED });
    await row.waitFor();
    await page.getByText('Sin respuesta', { exact: true }).first().waitFor();
    const add = row.getByTestId('add-to-knowledge');
    const href = await add.getAttribute('href');
    expect(href).toBe(`/knowledge/${knowledgeId}?${new URLSearchParams({ add: 'text', text: UNANSWERED }).toString()}`);
    await app.screenshot(page, 'unanswered-questions');
    // "See their traces": the trace list filtered on the no_answer status.
    await list.getByTestId('unanswered-traces-link').click();
    await page.waitForURL(/\/crud\/bottrace\?filter\.status=/);
    await page.getByRole('heading', { name: 'Trazas del bot', exact: true }).waitFor();
    await page.getByRole('table').getByRole('row', { name: /Bot Transcripciones/ }).first().waitFor();
    // Only the unanswered trace: one row of the bot's two traces.
    await expect.poll(() => page.getByRole('table').getByRole('row', { name: /Bot Transcripciones/ }).count()).toBe(1);
    await page.getByText('1 registro', { exact: true }).waitFor();
    expect(await page.getByRole('row', { name: /horario de atención/ }).count()).toBe(0);
    await app.screenshot(page, 'unanswered-traces-filtered');
    await page.goBack();
    await row.waitFor();
    await add.click();
    await page.waitForURL(new RegExp(`/knowledge/${knowledgeId}`));
    // The knowledge base's add-content flow opens with the question as its text.
    const adding = page.getByRole('dialog');
    await expect.poll(() => adding.locator('textarea').evaluateAll((areas, text) => areas.some((area) => (area as HTMLTextAreaElement).value.includes(text)), UNANSWERED), { timeout: 20_000 }).toBe(true);
    await app.screenshot(page, 'unanswered-add-to-knowledge', { fullPage: false });
    await page.close();
  }, 240_000);
});
