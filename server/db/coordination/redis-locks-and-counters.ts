import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { SharedLocksAndCounters } from './coordination.ts';

const PREFIX = 'forja-chat-';
/** A lock's lease: renewed every third of it while the answer runs, so it outlives no dead instance by more. */
const LEASE_MS = 15_000;

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const HIT = `local c = redis.call('incr', KEYS[1]) if c == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end return {c, redis.call('pttl', KEYS[1])}`;

/**
 * Shared locks and counters in Redis (the chat's per-conversation lock and count). If Redis cannot be reached the chat goes on as on one
 * instance (this process's own lock and no shared count), logged, as the IP rate limits do
 * (skipOnError in server/http/create-server.ts): an outage must not stop every conversation.
 */
export function redisLocksAndCounters(redis: Redis, log: FastifyBaseLogger): SharedLocksAndCounters {
  const degraded = (what: string, error: unknown) => log.warn({ err: error }, `redis unavailable: chat ${what} not shared with other instances`);

  return {
    backend: 'redis',
    async tryLock(key) {
      const name = `${PREFIX}lock:${key}`;
      const token = randomUUID();
      try {
        if ((await redis.set(name, token, 'PX', LEASE_MS, 'NX')) !== 'OK') return null;
      } catch (error) {
        degraded('lock', error);
        return async () => {};
      }
      const renew = setInterval(() => void redis.eval(RENEW, 1, name, token, String(LEASE_MS)).catch(() => {}), LEASE_MS / 3);
      renew.unref();
      return async () => {
        clearInterval(renew);
        await redis.eval(RELEASE, 1, name, token).catch((error) => degraded('lock release', error));
      };
    },
    async hit(key, windowMs) {
      try {
        const [count, ttl] = (await redis.eval(HIT, 1, `${PREFIX}rate:${key}`, String(windowMs))) as [number, number];
        return { count, resetAt: Date.now() + Math.max(0, ttl) };
      } catch (error) {
        degraded('message limit', error);
        return { count: 0, resetAt: Date.now() + windowMs };
      }
    },
    // The connection belongs to the coordination (redis-coordination.ts), which closes it.
    async close() {},
  };
}
