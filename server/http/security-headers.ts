import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const GOOGLE = 'https://accounts.google.com';

/**
 * Helmet's options. The Content-Security-Policy fits the built console: Vite emits only
 * external module scripts ('self'); Mantine and Emotion inject <style> elements, hence
 * style-src 'unsafe-inline'; avatars may be data:/blob: previews or https pictures (Google);
 * Google Identity Services loads its script, styles and iframe from accounts.google.com.
 * upgrade-insecure-requests is left out: plain-http installs on a LAN address would break.
 * /files/* sets its own stricter policy (sandboxed user content).
 */
export function securityHeaders(): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", `${GOOGLE}/gsi/client`],
        styleSrc: ["'self'", "'unsafe-inline'", `${GOOGLE}/gsi/style`],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", `${GOOGLE}/gsi/`],
        frameSrc: [`${GOOGLE}/gsi/`],
      },
    },
    // Google's sign-in popup must be able to talk back to the opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  };
}

/**
 * The headers helmet sets with these options, as [name, value] pairs, computed once: they depend
 * on nothing in the request (no CSP nonces). @fastify/helmet rebuilt helmet's middleware, options
 * parsing included, on every request, near the top of the request path's profile (issue 30).
 */
export function securityHeaderList(options: HelmetOptions = securityHeaders()): ReadonlyArray<readonly [string, string]> {
  const headers: [string, string][] = [];
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.freeze(headers.map((pair) => Object.freeze(pair)));
}

/** Every response carries the security headers (a route may still override one, as /files/* does). */
export function registerSecurityHeaders(app: FastifyInstance, options?: HelmetOptions): void {
  const headers = securityHeaderList(options);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (let i = 0; i < headers.length; i++) raw.setHeader(headers[i][0], headers[i][1]);
    done();
  });
}
