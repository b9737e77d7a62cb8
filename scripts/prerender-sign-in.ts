import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { textsChunks } from './texts-chunks.ts';
import { PRERENDERED_ATTRIBUTE, PRERENDERED_PAGES, type PrerenderedPath } from '../src/app/prerendered-page.ts';

const ENTRY = 'src/prerender-sign-in.tsx';
/** The prerendered form's own script until React hydrates it: a second entry of the console's build. */
const EARLY_ENTRY = 'src/identity/early-sign-in.ts';
const EARLY_NAME = 'early-sign-in';

/** Where a prerendered page is written in the build: /login → prerendered/login.html (served at /login by serve-console.ts). */
function prerenderedFile(pagePath: string): string {
  return `prerendered/${pagePath.replace(/^\//, '')}.html`;
}

/**
 * Vite plugin: after the console's build, renders each page of PRERENDERED_PAGES (the sign-in
 * page) to HTML with React on Node, and writes it into a copy of index.html, with its brotli and
 * gzip copies. The visitor then sees the form as soon as the HTML and the stylesheet arrive, not
 * after the scripts have run; main.tsx hydrates it.
 */
export function prerenderSignIn(): Plugin {
  let config: ResolvedConfig;
  let earlyScript: string | null = null;
  return {
    name: 'forja:prerender-sign-in',
    apply: 'build',
    config(user) {
      if (user.build?.ssr) return;
      const root = user.root ?? process.cwd();
      return { build: { rollupOptions: { input: { index: path.resolve(root, 'index.html'), [EARLY_NAME]: path.resolve(root, EARLY_ENTRY) } } } };
    },
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      const early = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry && file.name === EARLY_NAME);
      earlyScript = early ? `/${early.fileName}` : null;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      if (!earlyScript) throw new Error(`prerender: the build has no ${EARLY_NAME} chunk (${EARLY_ENTRY}); the sign-in form would not work before hydration`);
      const outDir = path.resolve(config.root, config.build.outDir);
      const template = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
      // Inside node_modules: the server bundle imports its dependencies from there.
      const ssrDir = fs.mkdtempSync(path.join(config.root, 'node_modules', '.forja-prerender-'));
      try {
        await build({
          configFile: false,
          root: config.root,
          logLevel: 'warn',
          mode: config.mode,
          plugins: [react(), textsChunks()],
          build: { ssr: ENTRY, outDir: ssrDir, emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'prerender.mjs' } } },
        });
        const { renderPage } = (await import(pathToFileURL(path.join(ssrDir, 'prerender.mjs')).href)) as typeof import('../src/prerender-sign-in.tsx');
        for (const [pagePath, state] of Object.entries(PRERENDERED_PAGES)) {
          const html = pageHtml(template, pagePath, renderPage(pagePath as PrerenderedPath), state, earlyScript);
          const file = path.join(outDir, prerenderedFile(pagePath));
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, html);
          fs.writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          fs.writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
        }
      } finally {
        fs.rmSync(ssrDir, { recursive: true, force: true });
      }
    },
  };
}

/** index.html with the rendered markup in #root, in the language and color scheme it was rendered for. */
function pageHtml(template: string, pagePath: string, markup: string, state: { language: string; darkMode: boolean }, earlyScript: string): string {
  const root = '<div id="root"></div>';
  const htmlTag = /<html lang="[^"]*">/;
  if (!template.includes(root) || !htmlTag.test(template)) {
    throw new Error(`index.html: expected '<html lang="…">' and '${root}' to prerender ${pagePath} into; restore them or update scripts/prerender-sign-in.ts`);
  }
  // Mantine reads the scheme from this attribute; in the browser it sets it itself.
  const scheme = state.darkMode ? 'dark' : 'light';
  // Async: it runs once fetched and the document parsed, without waiting for the console's scripts.
  const early = `<script type="module" async crossorigin src="${earlyScript}"></script>`;
  return template
    .replace('</head>', `  ${early}\n  </head>`)
    .replace(htmlTag, `<html lang="${state.language}" data-mantine-color-scheme="${scheme}">`)
    .replace(root, `<div id="root" ${PRERENDERED_ATTRIBUTE}="${pagePath}">${markup}</div>`);
}
