import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import type { Plugin } from 'vite';
import { consoleTheme, cssVariablesResolver } from '../src/app/theme.ts';

const ID = 'virtual:forja/theme-variables.css';
const RESOLVED = `\0${ID}`;
const THEME_FILE = fileURLToPath(new URL('../src/app/theme.ts', import.meta.url));

/**
 * The theme's CSS variables as a stylesheet, written once at build time (and by the dev server),
 * instead of computed by MantineProvider in every visitor's browser on every load: about a
 * thousand colour variables from the theme and the contrast resolver, then compared with Mantine's
 * defaults, which was measurable on the sign-in page's cold load. The console imports
 * `virtual:forja/theme-variables.css` and renders MantineProvider with withCssVariables={false}.
 * Taken from what MantineProvider itself renders, so it is exactly Mantine's output.
 */
export function themeVariablesCss(): Plugin {
  return {
    name: 'forja:theme-variables-css',
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      this.addWatchFile(THEME_FILE);
      // The resolver and the palette only: the texts the theme takes do not reach its variables.
      const markup = renderToString(createElement(MantineProvider, { theme: consoleTheme({ close: '' }), cssVariablesResolver }));
      const styles = [...markup.matchAll(/<style data-mantine-styles="true"[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]);
      if (styles.length === 0) throw new Error(`${ID}: MantineProvider rendered no <style data-mantine-styles> (${markup.slice(0, 200)}); check the @mantine/core version's MantineCssVariables`);
      return styles.join('\n');
    },
  };
}
