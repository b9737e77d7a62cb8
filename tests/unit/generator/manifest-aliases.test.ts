import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { generate } from '../../../generator/generate.ts';
import { formatIssue, formatWarning } from '../../../generator/validate/manifest-issue.ts';
import { resolveManifestAliases } from '../../../contract/model/resolve-manifest-aliases.ts';
import { issuesOf, manifest, metaSchema, realInput, ROOT } from './fixture.ts';

// `api.provider` was renamed `api.endpoints` (docs/architecture.md "Names: one meaning each"): an
// existing manifest with the old key keeps working, with a warning that says how to rename it.

const RENAME_WARNING = (file: string, value: string) => `warning: ${file}: api.provider: "api.provider" is the old name of "api.endpoints"; it is read as "api.endpoints" for now
  found:    "${value}"
  fix:      rename it to api.endpoints`;

describe('the old key api.provider', () => {
  for (const [entity, value] of [['setting', 'custom'], ['contact', 'generic'], ['contact', 'custom'], ['bot', 'generic']] as const) {
    test(`old key only (${entity}, "${value}"): read as api.endpoints, with a warning naming the file, the path and the fix`, () => {
      const input = realInput();
      const api = manifest(input, entity).api;
      delete api.endpoints;
      api.provider = value;
      const { models, warnings } = generate(input, metaSchema);
      expect(models[entity.toLowerCase()]!.api).toEqual({ basePath: api.basePath, endpoints: value });
      expect(warnings.map(formatWarning)).toEqual([RENAME_WARNING(`manifests/${entity}.json`, value)]);
      // The generator reads a copy: the input is as it was.
      expect(manifest(input, entity).api.provider).toBe(value);
    });
  }

  test('the model is the same whichever key names it (every artefact byte for byte)', () => {
    const current = generate(realInput(), metaSchema);
    const input = realInput();
    for (const source of input.manifests) {
      const api = (source.json as { api: Record<string, unknown> }).api;
      if (!('endpoints' in api)) continue;
      const { endpoints, ...rest } = api;
      (source.json as { api: unknown }).api = { ...rest, provider: endpoints };
    }
    const old = generate(input, metaSchema);
    expect([...old.files]).toEqual([...current.files]);
    expect(old.warnings.map((warning) => warning.file)).toEqual(['manifests/setting.json']);
  });

  test('new key only, or neither: no warning', () => {
    expect(generate(realInput(), metaSchema).warnings).toEqual([]);
    const input = realInput();
    manifest(input, 'contact').api.endpoints = 'generic';
    expect(generate(input, metaSchema).warnings).toEqual([]);
  });

  for (const value of ['generic', 'custom']) {
    test(`both keys with the same value ("${value}"): accepted, with a warning to remove the old one`, () => {
      const input = realInput();
      const entity = value === 'custom' ? 'setting' : 'contact';
      Object.assign(manifest(input, entity).api, { provider: value, endpoints: value });
      const { models, warnings } = generate(input, metaSchema);
      expect(models[entity]!.api.endpoints).toBe(value);
      expect(warnings.map(formatWarning)).toEqual([`warning: manifests/${entity}.json: api.provider: "api.provider" is the old name of "api.endpoints", which is given too with the same value
  found:    "${value}"
  fix:      remove api.provider`]);
    });
  }

  for (const [entity, provider, endpoints] of [['setting', 'generic', 'custom'], ['contact', 'custom', 'generic']] as const) {
    test(`both keys with different values (${provider} / ${endpoints}): refused, naming both`, () => {
      const input = realInput();
      Object.assign(manifest(input, entity).api, { provider, endpoints });
      expect(issuesOf(input).map(formatIssue)).toEqual([`manifests/${entity}.json: api.provider: "api.provider" (the old name of "api.endpoints") is "${provider}" but "api.endpoints" is "${endpoints}"
  found:    "${provider}"
  expected: only "api.endpoints"
  fix:      remove api.provider and keep the value you mean in api.endpoints`]);
    });
  }

  test('an old key with a value neither name allows: the meta-schema refuses it, and the warning says where it came from', () => {
    const input = realInput();
    manifest(input, 'contact').api.provider = 'magic';
    let thrown: unknown;
    try {
      generate(input, metaSchema);
    } catch (error) {
      thrown = error;
    }
    const error = thrown as { issues: Parameters<typeof formatIssue>[0][]; warnings: Parameters<typeof formatIssue>[0][] };
    expect(error.issues.map(formatIssue)).toEqual([`manifests/contact.json: api.endpoints: value is not allowed
  found:    "magic"
  expected: one of: "generic", "custom"`]);
    expect(error.warnings.map(formatWarning)).toEqual([RENAME_WARNING('manifests/contact.json', 'magic')]);
  });

  test('the renamed key keeps its place (a manifest written back keeps its order), and other values are untouched', () => {
    const json = { name: 'x', api: { provider: 'custom', basePath: '/api/x' }, fields: [{ name: 'a' }] };
    const resolved = resolveManifestAliases('manifests/x.json', json);
    expect(JSON.stringify(resolved.json)).toBe('{"name":"x","api":{"endpoints":"custom","basePath":"/api/x"},"fields":[{"name":"a"}]}');
    expect((resolved.json as { fields: unknown }).fields).toBe(json.fields);
    expect(json.api).toEqual({ provider: 'custom', basePath: '/api/x' });
    for (const shape of [null, 'text', [], { api: null }, { api: [] }, { api: 'x' }, {}]) {
      expect(resolveManifestAliases('manifests/x.json', shape)).toEqual({ json: shape, warnings: [], issues: [] });
    }
  });
});

describe('the CLI with the old key', { timeout: 60_000 }, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'forja-alias-'));
  cpSync(path.join(import.meta.dirname, 'fixture-project'), work, { recursive: true });
  cpSync(path.join(ROOT, 'manifests/manifest.schema.json'), path.join(work, 'manifests/manifest.schema.json'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const run = (...args: string[]) => spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'generator/cli.ts'), '--root', work, ...args], { encoding: 'utf8' });
  const setApi = (api: Record<string, unknown>) => {
    const file = path.join(work, 'manifests/author.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.api = { basePath: '/api/authors', ...api };
    writeFileSync(file, JSON.stringify(json, null, 2));
  };

  test('generates with a warning (even with --quiet); both keys disagreeing exit 1 naming both', () => {
    setApi({ provider: 'custom' });
    const generated = run('--quiet');
    expect(generated.status, generated.stderr).toBe(0);
    expect(generated.stderr).toContain(RENAME_WARNING('manifests/author.json', 'custom'));
    expect(readFileSync(path.join(work, 'src/generated/entities.ts'), 'utf8')).toContain('"endpoints": "custom"');

    setApi({ provider: 'custom', endpoints: 'generic' });
    const refused = run();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('manifests/author.json: api.provider: "api.provider" (the old name of "api.endpoints") is "custom" but "api.endpoints" is "generic"');
    expect(refused.stderr).toContain('nothing was written');
  });
});
