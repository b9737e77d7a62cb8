import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The channel the tables' statement triggers notify (see migrate-entities.ts). */
export const CHANGE_CHANNEL = 'forja_changes';
const RECONNECT_MS = 1000;
/** How often the feed checks that it still hears the channel, and how long an answer may take. */
const HEARTBEAT_MS = 15_000;
const HEARTBEAT_TIMEOUT_MS = 5000;

/**
 * What SQLite's PRAGMA data_version is to the SQLite Database: a token that moves whenever any
 * process may have changed the data, so derived results (callers, list totals, settings) can be
 * reused until it moves. Every entity table notifies CHANGE_CHANNEL from a statement trigger
 * when its transaction commits; one LISTEN connection per instance counts the notifications.
 * This instance's own writes move the token at once; another instance's within the notification
 * delay (milliseconds). While the LISTEN connection is down every token is new: nothing is
 * reused, so a lost notification can never leave a stale answer behind.
 *
 * A connection can also die silently (a NAT or proxy dropping an idle socket; a pooler in
 * transaction mode that accepts LISTEN but never delivers): TCP keep-alive plus a heartbeat, a
 * notification the feed sends itself and must hear back, count it as down in those cases too.
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
  private heartbeat: NodeJS.Timeout | null = null;
  private pendingBeat: { payload: string; deadline: NodeJS.Timeout } | null = null;
  private beats = 0;
  private readonly id = randomBytes(6).toString('hex');

  constructor(
    private readonly url: string,
    private readonly timing: { heartbeatMs: number; heartbeatTimeoutMs: number } = { heartbeatMs: HEARTBEAT_MS, heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS },
  ) {
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
    this.stopTimers();
    await this.client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    this.client = client;
    const down = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = null;
      this.stopTimers();
      client.end().catch(() => {});
      if (!this.closed) {
        this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
        this.retry.unref();
      }
    };
    client.on('error', down);
    client.on('end', down);
    client.on('notification', (message) => {
      if (!message.payload) {
        this.changes++;
      } else if (this.pendingBeat && message.payload === this.pendingBeat.payload) {
        clearTimeout(this.pendingBeat.deadline);
        this.pendingBeat = null;
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.client !== client || this.closed) return;
      this.generation++;
      this.listening = true;
      this.heartbeat = setInterval(() => this.beat(client, down), this.timing.heartbeatMs);
      this.heartbeat.unref();
    } catch {
      down();
    }
  }

  private beat(client: pg.Client, down: () => void): void {
    if (this.pendingBeat) return;
    const payload = `heartbeat:${this.id}:${++this.beats}`;
    const deadline = setTimeout(down, this.timing.heartbeatTimeoutMs);
    deadline.unref();
    this.pendingBeat = { payload, deadline };
    client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]).catch(down);
  }

  private stopTimers(): void {
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.pendingBeat) clearTimeout(this.pendingBeat.deadline);
    this.retry = this.heartbeat = null;
    this.pendingBeat = null;
  }
}
