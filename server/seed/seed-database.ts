import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { EntityRecord, EntityService } from '../entities/entity-service.ts';
import type { ListQuery } from '../entities/list-query.ts';
import { system } from '../entities/system-context.ts';
import { HttpError } from '../http/http-error.ts';
import type { IdentityConfig } from '../identity/identity-config.ts';
import { allPermissions } from '../identity/permission-catalog.ts';
import { seedSettings } from '../settings/seed-settings.ts';

export const ADMIN_ROLE_NAME = 'Admin';
export const USER_ROLE_NAME = 'User';

/**
 * What a self-registered or Google-created user may do by default: see and create their own API
 * keys. Everything else is granted by an administrator choosing a role.
 */
export const USER_ROLE_PERMISSIONS = ['userApiKey:myView', 'userApiKey:myCreate'];

/** Trace statuses the chat writes ('ok', 'error', 'no_answer') and the offline fallback answer. */
export const DEFAULT_TRACE_STATUSES = [
  { name: 'ok', description: 'Respuesta generada correctamente' },
  { name: 'error', description: 'Error al generar la respuesta' },
  { name: 'no_answer', description: 'Pregunta sin respuesta: nada relevante en el conocimiento o el modelo dijo no tener información' },
  { name: 'fallback', description: 'Respuesta del proveedor sin conexión (sin modelo configurado)' },
];

export interface SeedOptions {
  database: Database;
  service: EntityService;
  entities: EntityModelMap;
  identity: IdentityConfig;
  dataDir: string;
  port: number;
  /** Where the one-time admin banner goes (stdout). */
  print?: (text: string) => void;
}

/**
 * Everything a fresh database needs to be usable, in one place, safe to run on every start:
 * each step creates only what is missing (the Admin role's permissions are refreshed so it keeps
 * holding every permission after a model gains one).
 */
export async function seedDatabase(options: SeedOptions): Promise<void> {
  // Tests may run the server on a subset of the models; each step needs its entities.
  const has = (...names: string[]) => names.every((name) => options.entities[name]);
  if (has('role', 'user')) await seedAdminUser(options, await seedRoles(options));
  if (has('bottracestatus')) await seedTraceStatuses(options);
  if (has('setting')) await seedSettings(options.service);
}

/**
 * Seeds write through the entity service as system() (server/entities/README.md): the same
 * validation, defaults, secret encoding (the admin's password is hashed by the service) and
 * hooks as any write, without the access rules, and with the read-only fields a seed sets
 * (role.readonly is an ordinary field; system() could also set read-only ones).
 */
function byField(field: string, value: unknown, limit: number, orderBy: string | null = null): ListQuery {
  return { limit, offset: 0, orderBy, order: 'asc', search: null, filters: [{ column: field, operator: 'eq', value, list: false }] };
}

async function findId(options: SeedOptions, entity: string, field: string, value: string): Promise<string | null> {
  const [record] = await options.service.find(entity, system(), byField(field, value, 1));
  return record ? String(record._id) : null;
}

/**
 * The seeded Admin role: the oldest read-only role named Admin (role names are unique now, but
 * older databases may hold another role of that name; it must never be the one that receives
 * every permission on the next start).
 */
async function findAdminRole(options: SeedOptions): Promise<string | null> {
  const roles = await options.service.find('role', system(), byField('name', ADMIN_ROLE_NAME, 100, 'createdAt'));
  const locked = roles.find((role) => role.readonly === true);
  return locked ? String(locked._id) : roles.length > 0 ? String(roles[0]._id) : null;
}

async function seedRoles(options: SeedOptions): Promise<string> {
  const { service } = options;
  const permissions = allPermissions(options.entities);
  let adminId = await findAdminRole(options);
  if (adminId) await service.update('role', system(), adminId, { permissions, readonly: true });
  else adminId = idOf(await service.create('role', system(), { name: ADMIN_ROLE_NAME, permissions, childRoles: [], readonly: true }));
  if (!(await findId(options, 'role', 'name', USER_ROLE_NAME))) {
    await service.create('role', system(), { name: USER_ROLE_NAME, permissions: USER_ROLE_PERMISSIONS, childRoles: [], readonly: false });
  }
  return adminId;
}

function idOf(record: EntityRecord): string {
  return String(record._id);
}

/**
 * The seeded administrator's e-mail: a valid address (the user schema requires one, or the admin
 * record could not be edited) on the reserved `.invalid` domain (RFC 2606), so nothing is ever
 * delivered until an administrator enters a real one.
 */
export function seededAdminEmail(username: string): string {
  const local = /^[a-z0-9._+-]{1,64}$/i.test(username) && !username.startsWith('.') && !username.endsWith('.') && !username.includes('..') ? username : 'admin';
  return `${local}@forja.invalid`;
}

async function seedAdminUser(options: SeedOptions, adminRoleId: string): Promise<void> {
  const { identity, service } = options;
  const existing = await findId(options, 'user', 'username', identity.adminUsername);
  if (existing) {
    // Databases seeded before this release hold `<username>@localhost`, which the user schema
    // refuses (the admin record could not be saved). Only that exact seeded value is replaced.
    const user = await service.findById('user', system(), existing);
    if (user.email === `${identity.adminUsername}@localhost`) {
      await service.update('user', system(), existing, { email: seededAdminEmail(identity.adminUsername) });
    }
    return;
  }
  const generated = !identity.adminPassword;
  const password = identity.adminPassword ?? randomBytes(12).toString('base64url');
  try {
    await service.create('user', system(), {
      username: identity.adminUsername,
      name: 'Administrator',
      email: seededAdminEmail(identity.adminUsername),
      phone: '-',
      password,
      role: adminRoleId,
      tenant: null,
      active: true,
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const problems = (error.inputErrors ?? []).map((e) => `${e.field}: ${e.reason}`).join(', ');
    throw new Error(`The administrator to seed is refused by the user model (${problems || error.message}); check ADMIN_USERNAME and ADMIN_PASSWORD (8 to 64 characters)`);
  }
  if (!generated) return;
  const file = path.join(options.dataDir, 'admin-password.txt');
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  const line = '='.repeat(72);
  (options.print ?? ((text) => process.stdout.write(text)))(
    `\n${line}\n  Forja: administrator created.\n` +
      `  Sign in at http://localhost:${options.port}/login as ${identity.adminUsername} / ${password}\n` +
      `  (also saved to ${file}; shown only this once - set ADMIN_PASSWORD to choose it)\n${line}\n\n`,
  );
}

async function seedTraceStatuses(options: SeedOptions): Promise<void> {
  for (const status of DEFAULT_TRACE_STATUSES) {
    if (!(await findId(options, 'bottracestatus', 'name', status.name))) await options.service.create('bottracestatus', system(), status);
  }
}
