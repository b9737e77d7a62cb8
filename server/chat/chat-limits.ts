/**
 * Limits of the public chat endpoints, read once from the environment when the feature registers.
 *
 * | Variable                          | Default | Meaning                                              |
 * |-----------------------------------|---------|------------------------------------------------------|
 * | CHAT_MAX_MESSAGE_CHARS            | 4000    | Longest visitor message (longer: 400)                |
 * | CHAT_RATE_START_PER_MINUTE        | 20      | POST /api/chat/start per IP                          |
 * | CHAT_RATE_READ_PER_MINUTE         | 120     | GET bot / conversation per IP                        |
 * | CHAT_RATE_MESSAGE_PER_MINUTE      | 60      | messages (and reactions) per IP                      |
 * | CHAT_RATE_CONVERSATION_PER_MINUTE | 20      | messages per conversation, whatever the IP           |
 *
 * The per-IP counters live in @fastify/rate-limit's store (server/http/create-server.ts): Redis
 * with REDIS_URL, else PostgreSQL when that is the database, so several instances count one
 * budget; process memory on SQLite (one process). The per-conversation counter: server/db/coordination.
 */
export interface ChatLimits {
  maxMessageChars: number;
  startPerMinute: number;
  readPerMinute: number;
  messagePerMinute: number;
  conversationPerMinute: number;
}

export function readChatLimits(env: NodeJS.ProcessEnv): ChatLimits {
  const int = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer; got ${JSON.stringify(raw)}`);
    return value;
  };
  return {
    maxMessageChars: int('CHAT_MAX_MESSAGE_CHARS', 4000),
    startPerMinute: int('CHAT_RATE_START_PER_MINUTE', 20),
    readPerMinute: int('CHAT_RATE_READ_PER_MINUTE', 120),
    messagePerMinute: int('CHAT_RATE_MESSAGE_PER_MINUTE', 60),
    conversationPerMinute: int('CHAT_RATE_CONVERSATION_PER_MINUTE', 20),
  };
}
