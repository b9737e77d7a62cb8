import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EntityModelMap } from '../../generator/model/entity-model.ts';
import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import type { IdentityConfig } from '../identity/identity-config.ts';
import { hashPassword } from '../identity/password-hasher.ts';
import { allPermissions } from '../identity/permission-catalog.ts';
import { seedSettings } from '../settings/seed-settings.ts';
import { insertRecord, updateRecord } from './insert-record.ts';

export const ADMIN_ROLE_NAME = 'Admin';
export const USER_ROLE_NAME = 'User';

/**
 * What a self-registered or Google-created user may do by default: see and create their own API
 * keys. Everything else is granted by an administrator choosing a role.
 */
export const USER_ROLE_PERMISSIONS = ['userApiKey:myView', 'userApiKey:myCreate'];

/** Trace statuses the chat writes ('ok', 'error') and the offline fallback answer. */
export const DEFAULT_TRACE_STATUSES = [
  { name: 'ok', description: 'Respuesta generada correctamente' },
  { name: 'error', description: 'Error al generar la respuesta' },
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
  if (has('setting')) await seedSettings(options.database, options.service.runtime('setting'));
}

async function findId(options: SeedOptions, entity: string, field: string, value: string): Promise<string | null> {
  const runtime = options.service.runtime(entity);
  const row = await options.database.first(
    options.database.kysely.selectFrom(runtime.table).select('_id').where(field, '=', value).limit(1).compile(),
  );
  return row ? String(row._id) : null;
}

async function seedRoles(options: SeedOptions): Promise<string> {
  const { database, service } = options;
  const runtime = service.runtime('role');
  const permissions = allPermissions(options.entities);
  let adminId = await findId(options, 'role', 'name', ADMIN_ROLE_NAME);
  if (adminId) await updateRecord(database, runtime, adminId, { permissions, readonly: true });
  else adminId = await insertRecord(database, runtime, { name: ADMIN_ROLE_NAME, permissions, childRoles: [], readonly: true });
  if (!(await findId(options, 'role', 'name', USER_ROLE_NAME))) {
    await insertRecord(database, runtime, { name: USER_ROLE_NAME, permissions: USER_ROLE_PERMISSIONS, childRoles: [], readonly: false });
  }
  return adminId;
}

async function seedAdminUser(options: SeedOptions, adminRoleId: string): Promise<void> {
  const { identity } = options;
  if (await findId(options, 'user', 'username', identity.adminUsername)) return;
  const generated = !identity.adminPassword;
  const password = identity.adminPassword ?? randomBytes(12).toString('base64url');
  await insertRecord(options.database, options.service.runtime('user'), {
    username: identity.adminUsername,
    name: 'Administrator',
    email: `${identity.adminUsername}@localhost`,
    phone: '-',
    password: await hashPassword(password),
    role: adminRoleId,
    tenant: null,
    active: true,
  });
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
  const runtime = options.service.runtime('bottracestatus');
  for (const status of DEFAULT_TRACE_STATUSES) {
    if (!(await findId(options, 'bottracestatus', 'name', status.name))) await insertRecord(options.database, runtime, status);
  }
}
