import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MarkdownMessage } from '../../../src/chat/markdown-message.tsx';
import { installBrowserShims } from '../runtime/runtime-test-harness.tsx';

/** Answers are markdown made into React elements, never HTML: nothing a model writes runs or styles the page. */
const show = (text: string) =>
  render(
    <MantineProvider>
      <MarkdownMessage text={text} />
    </MantineProvider>,
  ).container;

beforeAll(installBrowserShims);
afterEach(cleanup);

describe('MarkdownMessage', () => {
  it('renders emphasis, lists, code and safe links', () => {
    const root = show('**Horario**: de *lunes* a viernes.\n\n- uno\n- dos\n\n`code` y [web](https://example.com)');
    expect(root.querySelector('strong')?.textContent).toBe('Horario');
    expect(root.querySelector('em')?.textContent).toBe('lunes');
    expect(root.querySelectorAll('li')).toHaveLength(2);
    expect(root.querySelector('code')?.textContent).toBe('code');
    const link = root.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com');
    expect(link?.getAttribute('rel')).toContain('noopener');
  });

  it('shows raw HTML as text and makes no element, handler or style of it', () => {
    const root = show('Hola <img src=x onerror="window.__xss=1"> <script>alert(1)</script> <b style="color:red">x</b>\n\n<div onclick="x()">bloque</div>');
    expect(root.querySelector('img, script, b, div[onclick]')).toBeNull();
    expect(root.textContent).toContain('<img src=x onerror="window.__xss=1">');
    expect(root.textContent).toContain('<div onclick="x()">bloque</div>');
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('never links javascript: or data: addresses, and keeps entities as typed', () => {
    const root = show('[pulsa](javascript:alert(1)) [dato](data:text/html,hi) 5 < 6 & "ok"');
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('pulsa');
    expect(root.textContent).toContain('5 < 6 & "ok"');
  });
});
