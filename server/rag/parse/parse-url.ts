import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { RagError } from '../rag-error.ts';
import { fromHints, type FileType } from './detect-file-type.ts';
import { ipLiteral, isPublicAddress } from './address-policy.ts';
import { parseDocument, type ParsedDocument } from './parse-file.ts';

export const DEFAULT_URL_TIMEOUT_MS = 15_000;
export const DEFAULT_URL_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
const MAX_URL_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface ParseUrlOptions {
  /** Whole operation, every redirect included. */
  timeoutMs?: number;
  /** Decoded body bytes; the download is aborted past it. */
  maxBytes?: number;
  /** Lets loopback and private addresses through: tests and trusted intranet deployments only. */
  allowPrivate?: boolean;
  /** Which resolved addresses may be dialled; defaults to isPublicAddress. Tests inject one. */
  isAllowedAddress?: (address: string) => boolean;
  /** Name resolution; defaults to dns.lookup with all: true. Tests inject one. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface ParsedUrl extends ParsedDocument {
  /** The address the content finally came from, after redirects. */
  url: string;
}

/**
 * Fetches a page and returns its readable text (HTML, plain text, Markdown, PDF or DOCX).
 *
 * Against server-side request forgery every hop (the URL and each redirect, at most 5) has its
 * host resolved and EVERY address checked by isPublicAddress; the connection is then made to the
 * checked address itself (a custom `lookup` pins it), so a DNS answer that changes between check
 * and connect (rebinding) cannot reach an internal address. TLS still verifies the certificate
 * against the host name. Proxies from the environment are not used.
 */
export async function parseUrl(url: unknown, options: ParseUrlOptions = {}): Promise<ParsedUrl> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_URL_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_URL_MAX_BYTES;
  const resolve = options.resolve ?? defaultResolve;
  const allowed = options.allowPrivate ? () => true : (options.isAllowedAddress ?? isPublicAddress);
  let current = checkUrl(url);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for (let hop = 0; ; hop += 1) {
      const address = await checkedAddress(current, resolve, allowed);
      const response = await request(current, address, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= MAX_REDIRECTS) {
          throw new RagError('urlUnreachable', `Too many redirects (more than ${MAX_REDIRECTS})`, { field: 'url' });
        }
        current = checkUrl(new URL(response.headers.location, current).toString());
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new RagError('urlHttpStatus', `The page answered HTTP ${status}`, { field: 'url' });
      }
      const contentType = response.headers['content-type'] ?? '';
      acceptedType(contentType, current);
      const bytes = await readCapped(response, maxBytes);
      const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1];
      const parsed = await parseDocument(bytes, { mimetype: mimeOf(contentType) || undefined, filename: current.pathname, charset });
      return { ...parsed, url: current.toString() };
    }
  } catch (error) {
    if (error instanceof RagError) throw error;
    if (signal.aborted) {
      throw new RagError('urlTimeout', `The page did not answer within ${timeoutMs} ms`, { field: 'url', cause: error });
    }
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new RagError('urlUnreachable', `The page could not be fetched (${reason})`, { field: 'url', cause: error });
  }
}

/** The URL as parseUrl accepts it (http/https, credentials-free), else the RagError saying why. */
export function checkUrl(value: unknown): URL {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) {
    throw new RagError('invalidInput', `url must be a string of at most ${MAX_URL_LENGTH} characters`, { field: 'url' });
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new RagError('invalidInput', `Not a valid URL: ${value}`, { field: 'url' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RagError('invalidInput', 'Only http and https URLs can be read', { field: 'url' });
  }
  if (parsed.username || parsed.password) {
    throw new RagError('invalidInput', 'URLs with credentials are not accepted', { field: 'url' });
  }
  return parsed;
}

async function defaultResolve(hostname: string): Promise<ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

/** Resolves the host and refuses it unless every address is public; returns the one to dial. */
async function checkedAddress(
  url: URL,
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
  allowed: (address: string) => boolean,
): Promise<ResolvedAddress> {
  const literal = ipLiteral(url.hostname);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(url.hostname);
    } catch (error) {
      throw new RagError('urlUnreachable', `The host ${url.hostname} could not be resolved`, { field: 'url', cause: error });
    }
  }
  if (addresses.length === 0) throw new RagError('urlUnreachable', `The host ${url.hostname} has no address`, { field: 'url' });
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) {
    throw new RagError('urlRefused', `Refused: ${url.hostname} resolves to a non-public address (${refused.address})`, { field: 'url' });
  }
  return addresses[0];
}

function request(url: URL, address: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  // Dial exactly the address that was checked, whatever DNS says now.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, {
      lookup: pinned,
      signal,
      headers: {
        'accept': 'text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'Forja-Knowledge/1.0',
      },
    });
    req.once('response', resolve);
    req.once('error', reject);
  });
}

/** Content types we can read; anything else (images, video, archives...) is a 415. */
function acceptedType(contentType: string, url: URL): FileType {
  const mime = mimeOf(contentType);
  const type = mime ? fromHints({ mimetype: mime }) : fromHints({ filename: url.pathname }) ?? 'html';
  if (!type) throw new RagError('unsupportedType', `Unsupported content type: ${mime}`, { field: 'url' });
  return type;
}

function mimeOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** The decoded body, aborting as soon as it passes maxBytes (checked after decompression). */
async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length']);
  if (!response.headers['content-encoding'] && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  let body: Readable = response;
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') body = response.pipe(createGunzip());
  else if (encoding === 'deflate') body = response.pipe(createInflate());
  else if (encoding === 'br') body = response.pipe(createBrotliDecompress());
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (size > maxBytes || !response.complete) {
      response.destroy();
      body.destroy();
    }
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): RagError {
  return new RagError('tooLarge', `The page is larger than ${maxBytes} bytes`, { field: 'url' });
}
