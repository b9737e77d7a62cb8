import type { Database } from '../db/database.ts';
import { entities } from '../generated/entities.ts';
import { hashPassword } from './password-hasher.ts';

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
 * Direct reads and writes of the users table for identity flows. The generic entity service
 * never selects the password column (it is secret), so only these functions touch the hash.
 */
export class UserAccounts {
  constructor(private readonly database: Database) {}

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
    await this.setColumns(id, { password: await hashPassword(password) });
  }

  async setColumns(id: string, values: Record<string, unknown>): Promise<void> {
    await this.database.run(
      this.database.kysely.updateTable(USERS).set({ ...values, updatedAt: new Date().toISOString() }).where('_id', '=', id).compile(),
    );
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
