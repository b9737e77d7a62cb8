import { expect } from 'vitest';
import type { TestServer } from './test-server.ts';

/** Creates a record and fails the test loudly (with the server's answer) when it cannot. */
export async function create<T = any>(server: TestServer, base: string, body: Record<string, unknown>): Promise<T> {
  const response = await server.post(base, body);
  if (response.status !== 201) throw new Error(`POST ${base} -> ${response.status}: ${response.text}`);
  return response.body as T;
}

export function minimalBot(name: string, extra: Record<string, unknown> = {}) {
  return { name, description: `${name} description`, ...extra };
}

export function minimalKnowledge(name: string, extra: Record<string, unknown> = {}) {
  return { name, toolDescription: `${name} tool`, ...extra };
}

/** A trace status by name: the seeded one ('ok', 'error', 'fallback') or a new one. */
export async function traceStatus<T = any>(server: TestServer, name: string): Promise<T> {
  const found = await server.get(`/api/bot-trace-statuses/find?search=${encodeURIComponent(name)}`);
  const existing = (found.body as { name: string }[]).find((status) => status.name === name);
  if (existing) return existing as T;
  return create<T>(server, '/api/bot-trace-statuses', { name });
}

export async function traceFixtures(server: TestServer) {
  const ok = await traceStatus(server, 'ok');
  const failed = await traceStatus(server, 'failed');
  const bot = await create(server, '/api/bots', minimalBot('Traced'));
  return { ok, failed, bot };
}

export function expectErrorShape(body: unknown): void {
  expect(body).toEqual(expect.objectContaining({ message: expect.any(String) }));
}
