import pg from 'pg';

/** The channel the tables' statement triggers notify (see migrate-entities.ts). */
export const CHANGE_CHANNEL = 'forja_changes';
const RECONNECT_MS = 1000;

/**
 * What SQLite's PRAGMA data_version is to the SQLite Database: a token that moves whenever any
 * process may have changed the data, so derived results (callers, list totals, settings) can be
 * reused until it moves. Every entity table notifies CHANGE_CHANNEL from a statement trigger
 * when its transaction commits; one LISTEN connection per instance counts the notifications.
 * This instance's own writes move the token at once; another instance's within the notification
 * delay (milliseconds). While the LISTEN connection is down every token is new: nothing is
 * reused, so a lost notification can never leave a stale answer behind.
 */
export class PostgresChangeFeed {
  private client: pg.Client | null = null;
  private listening = false;
  private closed = false;
  /** Moves on every (re)connection: notifications missed while down must not be forgotten. */
  private generation = 0;
  private changes = 0;
  private unique = 0;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly url: string) {
    void this.connect();
  }

  token(): string {
    return this.listening ? `pg:${this.generation}:${this.changes}` : `pg:off:${++this.unique}`;
  }

  /** This instance committed a write: its own next reads must not reuse anything. */
  changed(): void {
    this.changes++;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    const down = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = null;
      client.end().catch(() => {});
      if (!this.closed) this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
    };
    client.on('error', down);
    client.on('end', down);
    client.on('notification', () => this.changes++);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.client !== client || this.closed) return;
      this.generation++;
      this.listening = true;
    } catch {
      down();
    }
  }
}
