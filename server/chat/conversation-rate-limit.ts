import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import type { SharedLocksAndCounters } from '../db/coordination/coordination.ts';
import { memoryWindows } from '../db/coordination/memory-windows.ts';

/**
 * A fixed-window counter per conversation, as a preHandler. Hand-written because
 * @fastify/rate-limit runs one limit per request (its first hook marks the request as done, so a
 * second limit on the same route never counts) and the IP limit already takes that slot. With
 * `coordination` (PostgreSQL or Redis, server/db/coordination) the count is shared by every instance;
 * otherwise it lives in this process.
 */
export function conversationRateLimit(
  max: number,
  windowMs: number,
  now: () => number = Date.now,
  coordination: Pick<SharedLocksAndCounters, 'hit'> | null = null,
) {
  const hit = coordination ? (key: string) => coordination.hit(key, windowMs) : memoryWindows(windowMs, now);

  return async function limitConversation(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = (request.params as { conversationId?: string }).conversationId ?? '';
    const window = await hit(key);
    if (window.count <= max) return;
    const seconds = Math.max(1, Math.ceil((window.resetAt - now()) / 1000));
    reply.header('retry-after', String(seconds));
    throw new HttpError(429, `Too many messages in this conversation; try again in ${seconds} seconds`, { i18nMessage: 'error.tooManyRequests' });
  };
}
