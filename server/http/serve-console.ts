import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Negotiator } from '@fastify/accept-negotiator';
import { notFound } from './http-error.ts';

/** Paths that are never the single-page app: unknown ones there are a real 404. */
const API_PREFIXES = ['/api/', '/files/'];
/**
 * Paths probes and scrapers try that the console does not have: answering them with the app's
 * HTML (status 200) would make a misdirected probe pass. /metrics is a route when METRICS_ENABLED.
 */
const NOT_CONSOLE_PATHS = new Set(['/metrics', '/healthz', '/readyz', '/livez', '/health', '/ready']);
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Folder of the build's prerendered pages: prerendered/login.html is the HTML of /login (scripts/prerender-sign-in.ts). */
const PRERENDERED_DIR = 'prerendered';
const ENCODINGS = { br: '.br', gzip: '.gz', identity: '' } as const;
const encodings = new Negotiator<keyof typeof ENCODINGS>({ supportedValues: ['br', 'gzip', 'identity'] });

/**
 * Serves the built console from distDir at / with a single-page fallback (any other GET that
 * accepts HTML gets index.html, so deep links like /crud/bot load the app). Without distDir
 * (API-only, tests) everything unknown is a 404 in the error shape.
 */
export async function registerConsole(app: FastifyInstance, distDir: string): Promise<void> {
  const hasConsole = fs.existsSync(`${distDir}/index.html`);
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      decorateReply: false,
      wildcard: true,
      index: ['index.html'],
      // The .br / .gz files the build writes beside each asset (vite.config.ts), when the browser takes them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('vary', 'accept-encoding');
        // Vite names every file under assets/ by its content hash: a name never changes content,
        // so browsers keep them for a year without asking again. Anything else is checked each time.
        const inDist = path.relative(distDir, file).split(path.sep);
        res.setHeader('cache-control', inDist.length > 1 && inDist[0] === 'assets' ? IMMUTABLE : 'no-cache');
      },
    });
  }
  const prerendered = hasConsole ? prerenderedPages(distDir) : new Map<string, string>();
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = url === '/api' || url === '/files' || API_PREFIXES.some((prefix) => url.startsWith(prefix)) || NOT_CONSOLE_PATHS.has(url.replace(/\/+$/, ''));
    // A missing asset (last segment has an extension) is a 404, not the app's HTML.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(url.split('/').pop() ?? '');
    if (hasConsole && !isApi && !looksLikeFile && (request.method === 'GET' || request.method === 'HEAD')) {
      reply.type('text/html').header('cache-control', 'no-cache');
      const page = prerendered.get(url);
      if (!page) return reply.send(fs.createReadStream(`${distDir}/index.html`));
      // The build wrote brotli and gzip copies beside it; a client that takes neither gets the plain file.
      const encoding = encodings.negotiate(request.headers['accept-encoding'] ?? '') ?? 'identity';
      reply.header('vary', 'accept-encoding');
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(fs.createReadStream(`${page}${ENCODINGS[encoding]}`));
    }
    throw notFound(`Route ${request.method} ${url} not found`);
  });
}

/** Route path → file of each prerendered page in the build (none when it has none). */
function prerenderedPages(distDir: string): Map<string, string> {
  const pages = new Map<string, string>();
  const root = path.join(distDir, PRERENDERED_DIR);
  if (!fs.existsSync(root)) return pages;
  for (const entry of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.html')) continue;
    const file = path.join(root, entry);
    for (const suffix of Object.values(ENCODINGS)) {
      if (!fs.existsSync(`${file}${suffix}`)) throw new Error(`${file}${suffix} is missing: the console build is incomplete; run npm run build again`);
    }
    pages.set(`/${entry.slice(0, -'.html'.length).split(path.sep).join('/')}`, file);
  }
  return pages;
}
