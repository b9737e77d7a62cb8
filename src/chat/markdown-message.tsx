import { Fragment, type ReactNode } from 'react';
import { Anchor, Code, List, Text, Title } from '@mantine/core';
import { marked, type Token, type Tokens } from 'marked';

/**
 * An answer's markdown as React elements, built from marked's tokens: never innerHTML, so no raw
 * HTML from a model or a knowledge source reaches the page (an HTML token is shown as its text),
 * no inline script or style is produced, and links open only http(s) and mailto addresses.
 */
export function MarkdownMessage({ text }: { text: string }) {
  return <>{blocks(marked.lexer(text, { gfm: true, breaks: true }))}</>;
}

function blocks(tokens: Token[]): ReactNode[] {
  return tokens.map((token, index) => <Fragment key={index}>{block(token)}</Fragment>);
}

function block(token: Token): ReactNode {
  switch (token.type) {
    case 'space':
    case 'hr':
      return null;
    case 'paragraph':
      return (
        <Text size="sm" component="p" my={4} style={{ overflowWrap: 'anywhere' }}>
          {inline((token as Tokens.Paragraph).tokens)}
        </Text>
      );
    case 'heading':
      // Level 2 under the page's h1 (the bot's name), whatever the answer's own level: levels must
      // not skip (axe heading-order); the size stays that of a small heading.
      return (
        <Title order={2} size="h6" my={4}>
          {inline((token as Tokens.Heading).tokens)}
        </Title>
      );
    case 'list': {
      const list = token as Tokens.List;
      return (
        <List type={list.ordered ? 'ordered' : 'unordered'} size="sm" my={4} withPadding>
          {list.items.map((item, index) => (
            <List.Item key={index}>{item.tokens.map((t, i) => <Fragment key={i}>{t.type === 'text' ? inline((t as Tokens.Text).tokens ?? [t]) : block(t)}</Fragment>)}</List.Item>
          ))}
        </List>
      );
    }
    case 'code':
      return (
        <Code block my={4}>
          {(token as Tokens.Code).text}
        </Code>
      );
    case 'blockquote':
      return (
        <Text size="sm" component="blockquote" c="dimmed" my={4} pl="sm" style={{ borderLeft: '3px solid var(--mantine-color-default-border)' }}>
          {blocks((token as Tokens.Blockquote).tokens)}
        </Text>
      );
    case 'text': {
      const text = token as Tokens.Text;
      return (
        <Text size="sm" component="p" my={4}>
          {text.tokens ? inline(text.tokens) : text.text}
        </Text>
      );
    }
    default:
      // html, tables and anything else: their source as plain text.
      return (
        <Text size="sm" component="p" my={4} style={{ whiteSpace: 'pre-wrap' }}>
          {'raw' in token ? String(token.raw) : ''}
        </Text>
      );
  }
}

function inline(tokens: Token[]): ReactNode[] {
  return tokens.map((token, index) => <Fragment key={index}>{span(token)}</Fragment>);
}

function span(token: Token): ReactNode {
  switch (token.type) {
    case 'strong':
      return <strong>{inline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{inline((token as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del>{inline((token as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return <Code>{(token as Tokens.Codespan).text}</Code>;
    case 'br':
      return <br />;
    case 'link': {
      const link = token as Tokens.Link;
      const safe = /^(https?:|mailto:)/i.test(link.href.trim());
      return safe ? (
        <Anchor href={link.href} target="_blank" rel="noopener noreferrer nofollow" size="sm">
          {inline(link.tokens)}
        </Anchor>
      ) : (
        <>{inline(link.tokens)}</>
      );
    }
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decode(text.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    default:
      // Inline HTML, images and the rest: their source as text (React escapes it).
      return 'raw' in token ? String(token.raw) : '';
  }
}

/** marked escapes &, <, >, " and ' in text tokens for HTML output; React escapes again, so undo it. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _);
}
