import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until.ts';

/** A local web site whose page /hold answers only when the test says so: a training that reads it stays running meanwhile. */
export interface HeldPageSite {
  /** http://127.0.0.1:<port>; `${url}/hold` is the held page, any other path answers at once. */
  url: string;
  /** How many requests for /hold are waiting. */
  held(): number;
  /** Answers every waiting request for /hold. */
  release(): void;
  /** Answers the held page once a training has asked for it (not before: it would wait for its timeout). */
  releaseWhenAsked(): Promise<void>;
  /** Answers what waits, drops every connection and stops listening. */
  close(): Promise<void>;
}

export interface HeldPageSiteOptions {
  /** The held page's text once answered. */
  heldText?: string;
  /** Only the first request for /hold waits (it is never answered unless released); later ones answer at once. */
  holdFirstOnly?: boolean;
}

export async function startHeldPageSite(options: HeldPageSiteOptions = {}): Promise<HeldPageSite> {
  const { heldText = 'La garantía cubre dos años.', holdFirstOnly = false } = options;
  const waiting: http.ServerResponse[] = [];
  let holds = 0;
  const answer = (res: http.ServerResponse, text: string) => res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  const release = () => {
    // A request whose client went away (an instance killed -9) has nobody to answer.
    for (const res of waiting.splice(0)) if (!res.destroyed) answer(res, heldText);
  };
  const site = http.createServer((req, res) => {
    if (req.url !== '/hold') answer(res, 'Abrimos de 9 a 18 h.');
    else if (holdFirstOnly && holds > 0) answer(res, heldText);
    else {
      holds++;
      waiting.push(res);
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    held: () => waiting.length,
    release,
    async releaseWhenAsked() {
      await until(async () => waiting.length, (n) => n > 0, 'the training to fetch the page');
      release();
    },
    async close() {
      release();
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}
