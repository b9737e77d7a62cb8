import { expect } from 'vitest';
import type { ApiClient, TestServer } from './test-server.ts';

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

let roleCounter = 0;

export interface TestUser {
  user: any;
  role: any;
  token: string;
  client: ApiClient;
}

/**
 * A new role holding exactly `permissions`, a user with it (in `tenant` when given) and that
 * user's signed-in client. Created through the API as the default (admin) client.
 */
export async function userWith(server: TestServer, permissions: string[], options: { tenant?: string | null; childRoles?: string[]; username?: string } = {}): Promise<TestUser> {
  roleCounter += 1;
  const role = await create(server, '/api/roles', { name: `Role ${roleCounter} ${permissions.join(' ').slice(0, 40)}`, permissions, childRoles: options.childRoles ?? [] });
  const username = options.username ?? `user${roleCounter}-${Math.random().toString(36).slice(2, 8)}`;
  const password = `pw-${username}-123`;
  const user = await create(server, '/api/users', {
    name: username, username, email: `${username}@example.com`, phone: '600000000', password, role: role._id,
    ...(options.tenant ? { tenant: options.tenant } : {}),
  });
  const token = await server.login(username, password);
  return { user, role, token, client: server.as({ token }) };
}

/** Fails when any response body seen by the server's clients holds an argon2 hash or one of `secrets` outside `allowed` bodies. */
export function expectNoLeaks(server: TestServer, secrets: string[] = [], allowed: (body: string) => boolean = () => false): void {
  const leaks = server.bodies.filter((body) => !allowed(body) && (body.includes('$argon2') || secrets.some((secret) => body.includes(secret))));
  expect(leaks).toEqual([]);
}
