import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFound } from './http-error.ts';

/** Paths that are never the single-page app: unknown ones there are a real 404. */
const API_PREFIXES = ['/api/', '/files/'];
const IMMUTABLE = 'public, max-age=31536000, immutable';

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
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = url === '/api' || url === '/files' || API_PREFIXES.some((prefix) => url.startsWith(prefix));
    // A missing asset (last segment has an extension) is a 404, not the app's HTML.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(url.split('/').pop() ?? '');
    if (hasConsole && !isApi && !looksLikeFile && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(`${distDir}/index.html`));
    }
    throw notFound(`Route ${request.method} ${url} not found`);
  });
}
