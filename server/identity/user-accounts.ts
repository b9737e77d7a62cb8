import type { Database } from '../db/database.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { system } from '../entities/system-context.ts';
import { entities } from '../generated/entities.ts';

/** The columns sign-in and password flows need, including the hash that the API never returns. */
export interface UserAccount {
  id: string;
  username: string;
  email: string | null;
  passwordHash: string | null;
  active: boolean;
  roleId: string | null;
  tenantId: string | null;
}

const USERS = entities.user.storage.table;

/**
 * The accounts identity flows sign in and recover with. Reads are raw SQL on purpose: they need
 * the password hash, a secret column the entity service never selects. Writes go through the
 * service as system() (validation, the password hashed by its secret encoder, the identity write
 * lock); the flows calling them end the user's sessions themselves (token-versions.ts), keeping
 * the caller's own when it changed its own password.
 */
export class UserAccounts {
  constructor(
    private readonly database: Database,
    private readonly service: EntityService,
  ) {}

  byUsername(username: string): Promise<UserAccount | null> {
    return this.findBy('username', username);
  }

  byId(id: string): Promise<UserAccount | null> {
    return this.findBy('_id', id);
  }

  /** Case-insensitive: e-mail addresses are typed in any case. */
  async byEmail(email: string): Promise<UserAccount | null> {
    const row = await this.database.first(
      this.database.kysely
        .selectFrom(USERS)
        .select(COLUMNS)
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
        .orderBy('createdAt')
        .limit(1)
        .compile(),
    );
    return row ? this.toAccount(row) : null;
  }

  async setPassword(id: string, password: string): Promise<void> {
    await this.setFields(id, { password });
  }

  /** Fields of a user, read-only ones included (the avatar), as system(). */
  async setFields(id: string, values: Record<string, unknown>): Promise<void> {
    await this.service.update('user', system(), id, values);
  }

  private async findBy(column: string, value: string): Promise<UserAccount | null> {
    const row = await this.database.first(this.database.kysely.selectFrom(USERS).select(COLUMNS).where(column, '=', value).limit(1).compile());
    return row ? this.toAccount(row) : null;
  }

  private toAccount(row: Record<string, unknown>): UserAccount {
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    return {
      id: String(row._id),
      username: String(row.username),
      email: text(row.email),
      passwordHash: text(row.password),
      active: this.database.dialect.decode('boolean', row.active) !== false,
      roleId: text(row.role),
      tenantId: text(row.tenant),
    };
  }
}

const COLUMNS = ['_id', 'username', 'email', 'password', 'active', 'role', 'tenant'];
