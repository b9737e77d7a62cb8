import { createTheme, darken, lighten, type CSSVariablesResolver, type MantineTheme } from '@mantine/core';

/**
 * The console's theme, chosen for WCAG 2.1 AA contrast (4.5:1 for text) in both colour schemes;
 * axe-core checks it on every screen (tests/e2e/accessibility.test.ts). It depends on the UI language
 * for the names of icon-only buttons it labels.
 * - Filled controls (buttons, badges, pagination, theme icons) use shade 8, and their text is black
 *   or white, whichever reads better: white text fails on green, teal, orange, yellow and cyan at
 *   any shade the palette has (3.45:1 on green 8). 0.18 is where black and white give the same
 *   contrast (about 4.58:1), so either choice is at least that.
 */
export function consoleTheme(texts: { close: string }) {
  return createTheme({
    primaryColor: 'blue',
    primaryShade: { light: 8, dark: 8 },
    defaultRadius: 'md',
    autoContrast: true,
    luminanceThreshold: 0.18,
    components: {
      // Every dialog: its header is a plain block, not a <header> (a second banner landmark beside
      // the page's, outside <main>), and its × button has a name in the UI language.
      ModalHeader: { defaultProps: { component: 'div' } },
      ModalCloseButton: { defaultProps: { 'aria-label': texts.close } },
      // A link inside a sentence must not be told apart by its colour alone (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
    },
  });
}

/** A little above AA's 4.5:1, so rounding in the browser's colour maths never lands below it. */
const TARGET = 4.6;
const WHITE = '#ffffff';

/**
 * Mantine's dimmed grey is 4.0:1 on the dark body and 3.5:1 on a dark card (dark 2, #828282), 3.3:1
 * on white in the light scheme (gray 6), and its dark error red 3.4:1: the dimmed values below are
 * the lightest (dark) and darkest (light) greys that keep 4.5:1 on every surface they appear on
 * (body, card, striped and hovered rows, inputs). Coloured text (`c="green"`, anchors) and the
 * light variant of badges and alerts (shade 9 on shade 1: 3.8:1 for green, 2.7:1 for yellow) are
 * darkened (light scheme) or lightened (dark scheme) per colour until they reach the target on
 * their backgrounds; colours that already do are left as Mantine draws them.
 */
export const cssVariablesResolver: CSSVariablesResolver = (current: MantineTheme) => {
  const light: Record<string, string> = { '--mantine-color-dimmed': '#5f666d', '--mantine-color-error': 'var(--mantine-color-red-9)' };
  const dark: Record<string, string> = { '--mantine-color-dimmed': '#adadad', '--mantine-color-error': 'var(--mantine-color-red-5)' };
  const darkSurfaces = [current.colors.dark[7], current.colors.dark[6], current.colors.dark[5]];
  for (const [name, shades] of Object.entries(current.colors)) {
    if (!Array.isArray(shades) || shades.length < 10 || name === 'dark') continue;
    const lightText = readable(shades[8], [WHITE, current.colors.gray[1]], darken);
    if (lightText !== shades[8]) light[`--mantine-color-${name}-text`] = lightText;
    const lightVariant = readable(shades[9], [shades[1]], darken);
    if (lightVariant !== shades[9]) light[`--mantine-color-${name}-light-color`] = lightVariant;
    const darkText = readable(shades[4], darkSurfaces, lighten);
    if (darkText !== shades[4]) dark[`--mantine-color-${name}-text`] = darkText;
  }
  return { variables: {}, light, dark };
};

/** `color`, or the least adjusted version of it that reaches TARGET on every background. */
function readable(color: string, backgrounds: string[], adjust: (color: string, amount: number) => string): string {
  for (let amount = 0; amount <= 0.8; amount += 0.05) {
    const candidate = amount === 0 ? color : adjust(color, amount);
    if (backgrounds.every((background) => contrast(candidate, background) >= TARGET)) return candidate;
  }
  return adjust(color, 0.8);
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

/** WCAG relative luminance of '#rrggbb' or 'rgb(a)(r, g, b...)' (what Mantine's darken/lighten return). */
function luminance(color: string): number {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  const channels = hex
    ? [0, 2, 4].map((offset) => parseInt(hex[1].slice(offset, offset + 2), 16))
    : (/rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(color)?.slice(1, 4).map(Number) ?? [0, 0, 0]);
  const [r, g, b] = channels.map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
