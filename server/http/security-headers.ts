import type { FastifyHelmetOptions } from '@fastify/helmet';

const GOOGLE = 'https://accounts.google.com';

/**
 * @fastify/helmet options. The Content-Security-Policy fits the built console: Vite emits only
 * external module scripts ('self'); Mantine and Emotion inject <style> elements, hence
 * style-src 'unsafe-inline'; avatars may be data:/blob: previews or https pictures (Google);
 * Google Identity Services loads its script, styles and iframe from accounts.google.com.
 * upgrade-insecure-requests is left out: plain-http installs on a LAN address would break.
 * /files/* sets its own stricter policy (sandboxed user content).
 */
export function securityHeaders(): FastifyHelmetOptions {
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
