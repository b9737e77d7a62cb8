import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessageBubble, citationHref } from '../../../src/chat/message-bubble.tsx';
import { ChatHeader, readableOn } from '../../../src/chat/chat-header.tsx';
import { NegativeAnswers } from '../../../src/chat/analytics/negative-answers.tsx';
import { MemoryRouter } from 'react-router-dom';
import { RuntimeHarness, installBrowserShims } from '../runtime/runtime-test-harness.tsx';

beforeAll(installBrowserShims);

describe('link citations', () => {
  it('only http(s) sources are links', () => {
    expect(citationHref('https://tienda.example/envios?x=1#a')).toBe('https://tienda.example/envios?x=1#a');
    expect(citationHref('HTTP://tienda.example')).toBe('http://tienda.example/');
    for (const source of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'Envíos', 'manual.pdf', '//tienda.example', 'https://', 'ftp://tienda.example/a', ' https://tienda.example', 'mailto:a@b.es']) {
      expect(citationHref(source), source).toBeNull();
    }
  });

  it('open the page in a new tab without opener or referrer; other sources stay text', async () => {
    const user = userEvent.setup();
    render(
      <RuntimeHarness services={{}}>
        <MessageBubble
          chat={{
            id: 'a1', role: 'assistant', message: 'Se envían en 48 horas.', createdAt: '2026-11-20T10:15:00.000Z',
            citations: [
              { source: 'https://tienda.example/envios', fragmentId: 'a'.repeat(64), excerpt: '48 horas' },
              { source: 'javascript:alert(1)', fragmentId: 'b'.repeat(64), excerpt: 'x' },
              { source: 'Horario.pdf', fragmentId: 'c'.repeat(64), excerpt: 'y' },
            ],
          }}
        />
      </RuntimeHarness>,
    );
    await user.click(screen.getByRole('button', { name: /Fuentes/ }));
    const links = screen.getAllByTestId('chat-citation-link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://tienda.example/envios');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer');
    const citations = screen.getAllByTestId('chat-citation');
    expect(within(citations[1]).queryByRole('link')).toBeNull();
    expect(citations[1]).toHaveTextContent('javascript:alert(1)');
    expect(within(citations[2]).queryByRole('link')).toBeNull();
  });
});

describe('chat header', () => {
  it('writes in black or white, whichever reads better on the bot colour', () => {
    expect(readableOn('#ffffff')).toBe('#000000');
    expect(readableOn('#000000')).toBe('#ffffff');
    expect(readableOn('#fab005')).toBe('#000000');
    expect(readableOn('#1864ab')).toBe('#ffffff');
    expect(readableOn('#e8590c')).toBe('#000000');
    expect(readableOn('not a colour')).toBe('#ffffff');
  });

  it('shows the title on the bot colour', () => {
    render(
      <RuntimeHarness services={{}}>
        <ChatHeader bot={{ _id: 'b', name: 'Tienda', questions: [], welcomeMessage: '', widgetTitle: 'Ayuda', widgetColor: '#1864ab', widgetPosition: 'right', widgetTheme: 'auto' }} size="h4" />
      </RuntimeHarness>,
    );
    const header = screen.getByTestId('chat-header');
    expect(header).toHaveStyle({ background: '#1864ab', color: '#ffffff' });
    expect(within(header).getByRole('heading', { level: 1 })).toHaveTextContent('Ayuda');
  });
});

describe('negatively rated answers', () => {
  const item = { question: '¿Hacéis envíos?', answer: 'No lo sé.', reaction: 'Incorrect', ratedAt: '2026-11-20T10:15:00.000Z', bot: { _id: 'b1', name: 'Tienda', knowledge: 'k1' }, trace: 't1', conversation: 'c1' };

  it('lists question, answer and reaction with add to knowledge prefilled with the question', () => {
    render(
      <MemoryRouter>
        <RuntimeHarness services={{}}>
          <NegativeAnswers answers={[item, { ...item, trace: 't2', reaction: 'Unclear', bot: { ...item.bot, knowledge: null } }]} canAddKnowledge canViewConversations={false} />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    const rows = screen.getAllByTestId('negative-answer');
    expect(rows[0]).toHaveTextContent('Incorrecto');
    expect(rows[0]).toHaveTextContent('No lo sé.');
    expect(within(rows[0]).getByTestId('add-to-knowledge')).toHaveAttribute('href', '/knowledge/k1?add=text&text=%C2%BFHac%C3%A9is+env%C3%ADos%3F');
    expect(rows[1]).toHaveTextContent('Confuso');
    expect(within(rows[1]).queryByTestId('add-to-knowledge')).toBeNull();
    expect(within(rows[0]).queryByRole('link', { name: 'Ver conversación' })).toBeNull();
  });

  it('says when there is none', () => {
    render(
      <MemoryRouter>
        <RuntimeHarness services={{}}>
          <NegativeAnswers answers={[]} canAddKnowledge canViewConversations />
        </RuntimeHarness>
      </MemoryRouter>,
    );
    expect(screen.getByTestId('negative-answers')).toHaveTextContent('Ninguna respuesta valorada');
  });
});
