import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectProcessMetrics, registry } from '../../../server/observability/metrics.ts';

/** The sample dashboard and the README name only series /metrics really serves (they drift apart otherwise). */
const root = path.resolve(import.meta.dirname, '../../..');
const served = () => {
  collectProcessMetrics();
  return new Set(registry.getMetricsAsArray().map((metric) => metric.name));
};
const namesIn = (text: string) => [...new Set([...text.matchAll(/\b((?:forja|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, '')))];

describe('ops/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(root, 'ops/grafana-dashboard.json'), 'utf8'));

  it('queries only series the server serves, and at least every forja_ family', () => {
    const names = served();
    const used = namesIn(JSON.stringify(dashboard));
    expect(used.filter((name) => !names.has(name))).toEqual([]);
    expect([...names].filter((name) => name.startsWith('forja_') && !used.includes(name))).toEqual([]);
  });

  it('is an importable dashboard: unique panel ids, a Prometheus datasource variable, a query per panel', () => {
    const ids = dashboard.panels.map((panel: { id: number }) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list[0]).toMatchObject({ name: 'datasource', type: 'datasource', query: 'prometheus' });
    for (const panel of dashboard.panels) expect(panel.targets.length, panel.title).toBeGreaterThan(0);
  });
});

describe('README "Operations"', () => {
  it('lists only forja_ series that exist', () => {
    const names = served();
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Operations'), readme.indexOf('### Backup and restore'));
    const listed = namesIn(section).filter((name) => name.startsWith('forja_'));
    expect(listed.length).toBeGreaterThan(5);
    expect(listed.filter((name) => !names.has(name))).toEqual([]);
  });
});
