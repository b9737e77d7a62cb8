import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_BUNDLE } from '../../../scripts/build-server.ts';

/**
 * No container engine runs in CI, so the Dockerfile and compose.yaml are checked for what can
 * drift from the code without one: the entry point, the probe, the user, and the variables.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('Dockerfile and compose.yaml', () => {
  it('the image runs the server bundle npm run build:server writes, as the unprivileged node user, with a health check on /api/health', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:20\S* AS build$/m);
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toContain('npm run build && npm run build:server');
    expect(dockerfile).toContain(`CMD ["node", "${SERVER_BUNDLE}"]`);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/api\/health/m);
    // What the bundle loads at run time is copied into the final stage.
    for (const folder of ['node_modules', 'dist', 'dist-server']) expect(dockerfile).toContain(`COPY --from=build /app/${folder} ./${folder}`);
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['node_modules', '.env', 'data']));
  });

  it('compose.yaml sets only variables the server reads, and the ones several instances need', () => {
    const compose = read('compose.yaml');
    const block = compose.slice(compose.indexOf('x-forja:'), compose.indexOf('services:'));
    const set = [...block.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
    const example = read('.env.example');
    for (const name of set) expect(example, `${name} is not a variable of .env.example`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    expect(set).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'INSTANCE_MODE', 'JWT_SECRET', 'API_KEY_SECRET', 'DATA_DIR', 'TRUST_PROXY']));
    expect(compose).toMatch(/^ {2}forja-1:$/m);
    expect(compose).toMatch(/^ {2}forja-2:$/m);
    // nginx sends to both instances.
    const nginx = read('deploy/nginx.conf');
    expect(nginx).toMatch(/server forja-1:3000;/);
    expect(nginx).toMatch(/server forja-2:3000;/);
  });
});
