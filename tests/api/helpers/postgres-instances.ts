import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createTestPostgresDatabase, dropTestPostgresDatabase } from './test-database.ts';
import { login, spawnServer, type ChildServer } from '../../fuzz/helpers/child-server.ts';

const ADMIN_PASSWORD = 'Instances-admin-1234';

/** Real server processes (README.md "Scaling out") sharing one fresh PostgreSQL database and no Redis. */
export interface PostgresInstances {
  databaseUrl: string;
  instances: ChildServer[];
  /** The admin's access token, signed in through the first instance (good on every one: they share the secrets). */
  token: string;
  /** Starts one more instance on the same database and settings (closed with the rest). */
  spawn(): Promise<ChildServer>;
  /** Stops every instance still running (SIGTERM), then drops the database and the data directory. */
  close(): Promise<void>;
}

export interface PostgresInstancesOptions {
  /** The database name's prefix (forja_<feature>_multi), so a leftover says which test it came from. */
  databasePrefix: string;
  count: number;
  /** Settings on top of the shared ones (multi mode, shared secrets, a pool of 4, warnings only). */
  env?: Record<string, string>;
}

/** Needs the api-postgres project (DATABASE_URL_TEST); call in beforeAll and close in afterAll. */
export async function startPostgresInstances(options: PostgresInstancesOptions): Promise<PostgresInstances> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${options.databasePrefix.replace(/_/g, '-')}-`));
  const databaseUrl = await createTestPostgresDatabase(options.databasePrefix);
  const env = {
    DATABASE_URL: databaseUrl,
    INSTANCE_MODE: 'multi',
    JWT_SECRET: randomBytes(32).toString('hex'),
    API_KEY_SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    PG_POOL_SIZE: '4',
    ...options.env,
  };
  const instances: ChildServer[] = [];
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.kill('SIGTERM')));
    await dropTestPostgresDatabase(databaseUrl);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const started = await Promise.allSettled(Array.from({ length: options.count }, () => spawnServer({ dataDir, env })));
    for (const result of started) if (result.status === 'fulfilled') instances.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const token = await login(instances[0].baseUrl, ADMIN_PASSWORD);
    const extra = async () => {
      const instance = await spawnServer({ dataDir, env });
      instances.push(instance);
      return instance;
    };
    return { databaseUrl, instances: [...instances], token, spawn: extra, close };
  } catch (error) {
    await close();
    throw error;
  }
}
