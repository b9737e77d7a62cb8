import { useEffect } from 'react';
import { Group, Title } from '@mantine/core';
import type { ChatBot } from './chat-types.ts';
import { EmbedCloseButton } from './embed-close-button.tsx';

/** Black or white, whichever reads better on `hex` (WCAG relative luminance); white for a bad value. */
export function readableOn(hex: string): '#000000' | '#ffffff' {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return '#ffffff';
  const channel = (value: string) => {
    const c = parseInt(value, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(match[1]) + 0.7152 * channel(match[2]) + 0.0722 * channel(match[3]);
  // Contrast with white (1.05 / (L + 0.05)) against contrast with black ((L + 0.05) / 0.05).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

/** The chat's header (contact form and conversation): the bot's title on the bot's colour. */
export function ChatHeader({ bot, size }: { bot: ChatBot; size: 'h3' | 'h4' }) {
  const color = /^#[0-9a-f]{6}$/i.test(bot.widgetColor) ? bot.widgetColor : '#228be6';
  const ink = readableOn(color);
  return (
    <Group justify="space-between" wrap="nowrap" px="sm" py={6} data-testid="chat-header" style={{ background: color, color: ink, borderRadius: 'var(--mantine-radius-md)' }}>
      <Title order={1} size={size} c="inherit">
        {bot.widgetTitle || bot.name}
      </Title>
      <EmbedCloseButton color={ink} />
    </Group>
  );
}

/**
 * The chat follows the bot's light or dark setting (widgetTheme; auto: the visitor's browser
 * preference, followed live) whatever the console's own setting, restored when the page leaves.
 * The chat page is a document of its own (a tab or the widget's frame), so the root attribute is its own.
 */
export function useChatColorScheme(setting: ChatBot['widgetTheme'] | undefined): void {
  useEffect(() => {
    if (!setting) return;
    const root = document.documentElement;
    const previous = root.getAttribute('data-mantine-color-scheme');
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => root.setAttribute('data-mantine-color-scheme', setting === 'auto' ? (media.matches ? 'dark' : 'light') : setting);
    apply();
    if (setting === 'auto') media.addEventListener('change', apply);
    return () => {
      media.removeEventListener('change', apply);
      if (previous) root.setAttribute('data-mantine-color-scheme', previous);
    };
  }, [setting]);
}
