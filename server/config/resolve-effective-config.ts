import type { EnvironmentDefaults } from '../config.ts';
import { sameEndpointOrigin } from '../llm/endpoint-origin.ts';
import type { EmbeddingSettings, LlmSettings } from '../llm/llm-settings.ts';
import { SETTING_DEFINITIONS } from '../settings/setting-definitions.ts';

/** What the features run with: Settings first, then the environment, then the built-in defaults. */
export interface EffectiveConfig {
  /** The chat model (chat, "improve text"). apiKey is only ever a key meant for baseUrl's origin. */
  llm: LlmSettings;
  /**
   * Fully resolved: baseUrl and apiKey already inherited from the chat where that applies, so
   * the embedding provider needs nothing else. apiKey is only ever a key meant for its origin.
   */
  embedding: EmbeddingSettings;
  allowPrivateUrls: boolean;
  graphqlIntrospection: boolean;
  /** null: no SMTP host, mails go to DATA_DIR/outbox. user/password only ever for this host. */
  smtp: SmtpSettings | null;
  /** Google sign-in client id: google.clientId, else GOOGLE_CLIENT_ID; null: Google sign-in off. */
  googleClientId: string | null;
  /** Origin of links in e-mails (no trailing slash): app.publicUrl, else PUBLIC_URL; null: unset. */
  publicUrl: string | null;
}

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

/** Reads the current configuration; cheap (Settings are cached until a write). */
export type EffectiveConfigReader = () => Promise<EffectiveConfig>;

/**
 * Merges the stored Settings values (`stored`: key → value, empty values absent or null) over
 * the environment's defaults. Pure: the one place where precedence and key binding are decided.
 *
 * Keys are bound to origins (server/settings/README.md "Secrets bound to their host"):
 * - LLM_API_KEY is sent only to LLM_BASE_URL's origin (OpenAI's when unset): when llm.baseUrl
 *   in Settings points elsewhere, the chat gets no key unless llm.apiKey is stored.
 * - EMBEDDING_API_KEY is sent only to EMBEDDING_BASE_URL's origin (else LLM_BASE_URL's).
 * - The embeddings borrow the chat's key only when they go to the chat's origin.
 * - Stored keys (llm.apiKey, embedding.apiKey) are already bound by the Settings store, which
 *   clears them when their host setting moves to another origin.
 */
export function resolveEffectiveConfig(stored: ReadonlyMap<string, unknown>, environment: EnvironmentDefaults): EffectiveConfig {
  const text = (key: string): string | null => {
    const value = stored.get(key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const env = environment;

  const llmBaseUrl = text('llm.baseUrl') ?? env.llm.baseUrl ?? null;
  const llmProvider = text('llm.provider');
  const llm: LlmSettings = {
    // 'auto' (the default) decides by the base URL, like an unset LLM_PROVIDER.
    provider: (llmProvider === 'auto' ? null : llmProvider) ?? env.llm.provider ?? null,
    model: text('llm.model') ?? env.llm.model ?? null,
    baseUrl: llmBaseUrl,
    apiKey: text('llm.apiKey') ?? (env.llm.apiKey && sameEndpointOrigin(llmBaseUrl, env.llm.baseUrl) ? env.llm.apiKey : null),
    timeoutMs: timeoutOf(stored.get('llm.timeoutMs'), env.llm.timeoutMs ?? null),
  };

  // An offline chat has no server to share: the embeddings then need their own base URL.
  const chatIsRemote = llm.provider !== 'offline';
  const embeddingBaseUrl = text('embedding.baseUrl') ?? env.embedding.baseUrl ?? (chatIsRemote ? llm.baseUrl ?? null : null);
  const envEmbeddingKeyHost = env.embedding.baseUrl ?? env.llm.baseUrl ?? null;
  const embedding: EmbeddingSettings = {
    model: text('embedding.model') ?? env.embedding.model ?? null,
    baseUrl: embeddingBaseUrl,
    apiKey:
      text('embedding.apiKey') ??
      (env.embedding.apiKey && sameEndpointOrigin(embeddingBaseUrl, envEmbeddingKeyHost) ? env.embedding.apiKey : null) ??
      (chatIsRemote && llm.apiKey && sameEndpointOrigin(embeddingBaseUrl, llm.baseUrl) ? llm.apiKey : null),
    timeoutMs: llm.timeoutMs,
  };

  const publicUrl = text('app.publicUrl') ?? env.publicUrl ?? null;
  return {
    llm,
    embedding,
    allowPrivateUrls: env.allowPrivateUrls,
    graphqlIntrospection: env.graphqlIntrospection,
    smtp: resolveSmtp(stored, env),
    googleClientId: text('google.clientId') ?? env.googleClientId ?? null,
    publicUrl: publicUrl === null ? null : publicUrl.replace(/\/+$/, ''),
  };
}

/**
 * smtp.* over SMTP_*. SMTP_USER / SMTP_PASSWORD go only to SMTP_HOST (case-insensitive): when
 * smtp.host in Settings names another server, only credentials stored in Settings are used.
 * Port, TLS and sender still holding their seeded value yield to the environment's.
 */
function resolveSmtp(stored: ReadonlyMap<string, unknown>, env: EnvironmentDefaults): SmtpSettings | null {
  const text = (key: string): string | null => {
    const value = stored.get(key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const host = text('smtp.host') ?? env.smtp.host;
  if (!host) return null;
  const envHostMatches = env.smtp.host !== null && env.smtp.host.toLowerCase() === host.toLowerCase();
  const user = text('smtp.user') ?? (envHostMatches ? env.smtp.user : null);
  const password = text('smtp.password') ?? (envHostMatches ? env.smtp.password : null);
  const port = stored.get('smtp.port');
  const secure = stored.get('smtp.secure');
  return {
    host,
    port: unlessSeeded('smtp.port', typeof port === 'number' && Number.isInteger(port) && port > 0 ? port : null, env.smtp.port) ?? 587,
    secure: unlessSeeded('smtp.secure', typeof secure === 'boolean' ? secure : null, env.smtp.secure) ?? false,
    ...(user ? { user } : {}),
    ...(password ? { password } : {}),
    from: unlessSeeded('smtp.from', text('smtp.from'), env.smtp.from) ?? 'Forja <no-reply@localhost>',
  };
}

/** llm.timeoutMs: only positive integers count; the seeded 60 s yields to LLM_TIMEOUT_MS. */
function timeoutOf(value: unknown, fromEnv: number | null): number | null {
  const storedMs = typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
  return unlessSeeded('llm.timeoutMs', storedMs, fromEnv);
}

/**
 * Settings rows are seeded with their default, so a stored value equal to the seeded one does not
 * mean an administrator chose it: then the environment's value, when set, wins. Any other stored
 * value was chosen in Settings and wins over the environment.
 */
function unlessSeeded<T>(key: string, storedValue: T | null, fromEnv: T | null): T | null {
  if (storedValue !== null && storedValue !== SETTING_DEFINITIONS[key]?.value) return storedValue;
  return fromEnv ?? storedValue;
}
