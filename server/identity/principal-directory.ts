import type { Database } from '../db/database.ts';
import { entities } from '../generated/entities.ts';
import { TOKEN_VERSIONS_TABLE } from './token-versions.ts';

/** A signed-in caller as the authorizer and the data scoping need it. */
export interface Principal {
  userId: string;
  tenantId: string | null;
  roleId: string | null;
  permissions: readonly string[];
  active: boolean;
  /** Tokens must carry this version (token-versions.ts)... */
  tokenVersion: number;
  /** ...or be the one token kept when the user changed their own password (SHA-256 hex). */
  keepTokenHash: string | null;
}

export interface ApiKeyOwner {
  keyId: string;
  principal: Principal;
  ipv4: string[];
  ipv6: string[];
}

const USERS = entities.user.storage.table;
const ROLES = entities.role.storage.table;
const API_KEYS = entities.userApiKey.storage.table;
const MAX_ENTRIES = 10_000;

/**
 * Raw SQL on the users, roles and API-key tables on purpose (server/entities/README.md): an API
 * key is found by its keyed hash, a secret column the entity service never selects, and a caller
 * is one join with the token versions (not an entity table) on every authenticated request.
 * It only reads: users, roles and API keys are written through the entity service (issue 17).
 *
 * Loads callers (user + role permissions, API keys) for every authenticated request. Answers are
 * remembered while the database's change token stays the same: any write (a role edited, a user
 * deactivated, a key deleted, also by another process on the same SQLite file) invalidates them,
 * so permission changes apply on the next request while a read-only burst (GET by id at
 * thousands of requests a second) costs one map lookup instead of a join per request.
 */
export class PrincipalDirectory {
  private readonly users = new Map<string, { token: string; value: Principal | null }>();
  private readonly keys = new Map<string, { token: string; value: ApiKeyOwner | null }>();

  constructor(private readonly database: Database) {}

  async byUserId(userId: string): Promise<Principal | null> {
    const token = this.database.changeToken();
    const cached = this.users.get(userId);
    if (cached && cached.token === token) return cached.value;
    const value = await this.loadUser(userId);
    remember(this.users, userId, { token, value });
    return value;
  }

  /** The key whose stored keyed hash is `hash`, with its user. */
  async byApiKeyHash(hash: string): Promise<ApiKeyOwner | null> {
    const token = this.database.changeToken();
    const cached = this.keys.get(hash);
    if (cached && cached.token === token) return cached.value;
    const row = await this.database.first(
      this.database.kysely.selectFrom(API_KEYS).select(['_id', 'user', 'ipv4', 'ipv6']).where('secret', '=', hash).limit(1).compile(),
    );
    let value: ApiKeyOwner | null = null;
    if (row && typeof row.user === 'string') {
      const principal = await this.loadUser(row.user);
      if (principal) {
        value = {
          keyId: String(row._id),
          principal,
          ipv4: stringList(this.database.dialect.decode('json', row.ipv4)),
          ipv6: stringList(this.database.dialect.decode('json', row.ipv6)),
        };
      }
    }
    remember(this.keys, hash, { token, value });
    return value;
  }

  private async loadUser(userId: string): Promise<Principal | null> {
    const row = await this.database.first(
      this.database.kysely
        .selectFrom(USERS)
        .leftJoin(ROLES, `${ROLES}._id`, `${USERS}.role`)
        .leftJoin(TOKEN_VERSIONS_TABLE, `${TOKEN_VERSIONS_TABLE}.userId`, `${USERS}._id`)
        .select([
          `${USERS}._id as id`, `${USERS}.tenant as tenant`, `${USERS}.active as active`, `${USERS}.role as role`, `${ROLES}.permissions as permissions`,
          `${TOKEN_VERSIONS_TABLE}.version as tokenVersion`, `${TOKEN_VERSIONS_TABLE}.keepTokenHash as keepTokenHash`,
        ])
        .where(`${USERS}._id`, '=', userId)
        .compile(),
    );
    if (!row) return null;
    const { dialect } = this.database;
    return {
      userId: String(row.id),
      tenantId: typeof row.tenant === 'string' && row.tenant !== '' ? row.tenant : null,
      roleId: typeof row.role === 'string' ? row.role : null,
      permissions: Object.freeze(stringList(dialect.decode('json', row.permissions))),
      // A NULL active (column added later) counts as active: the manifest default is true.
      active: dialect.decode('boolean', row.active) !== false,
      tokenVersion: row.tokenVersion === null || row.tokenVersion === undefined ? 0 : Number(row.tokenVersion),
      keepTokenHash: typeof row.keepTokenHash === 'string' ? row.keepTokenHash : null,
    };
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
}
