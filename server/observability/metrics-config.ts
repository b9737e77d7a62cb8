/**
 * | Variable        | Default | Meaning                                                          |
 * |-----------------|---------|------------------------------------------------------------------|
 * | METRICS_ENABLED | false   | `true` serves GET /metrics (Prometheus text format)              |
 * | METRICS_TOKEN   | unset   | when set, /metrics needs `Authorization: Bearer <METRICS_TOKEN>` |
 */
export interface MetricsConfig {
  enabled: boolean;
  token: string | null;
}

export function loadMetricsConfig(env: NodeJS.ProcessEnv): MetricsConfig {
  const raw = env.METRICS_ENABLED?.trim().toLowerCase() || 'false';
  if (raw !== 'true' && raw !== 'false') throw new Error(`METRICS_ENABLED must be true or false; got ${JSON.stringify(env.METRICS_ENABLED)}`);
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && token.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 24), or unset');
  return { enabled: raw === 'true', token };
}
