import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { create, expectErrorShape, minimalKnowledge, userWith, type TestUser } from './helpers/fixtures.ts';
import { startHeldPageSite, type HeldPageSite } from './helpers/held-page-site.ts';
import { until } from './helpers/until.ts';
import { JobQueue } from '../../server/jobs/job-queue.ts';
import { createJobStore, type JobStore } from '../../server/jobs/job-store.ts';
import { DEFAULT_JOB_SETTINGS } from '../../server/jobs/job-settings.ts';

/**
 * The durable job queue (server/jobs, README.md "Jobs") on the test backend (SQLite, or
 * PostgreSQL in the api-postgres project): training as a job with progress, the jobs API and
 * who may see and cancel what, and a job whose instance stops heartbeating.
 */
const FAST = { JOBS_HEARTBEAT_SECONDS: '0.2', JOBS_STALE_SECONDS: '0.6', JOBS_POLL_MS: '50', RAG_ALLOW_PRIVATE_URLS: 'true' };

let server: TestServer;
let owner: TestUser;
let other: TestUser;
let site: HeldPageSite;

beforeAll(async () => {
  site = await startHeldPageSite();
  server = await startTestServer({ env: FAST });
  const permissions = ['knowledge:manage', 'knowledgesource:manage', 'bot:manage'];
  owner = await userWith(server, permissions);
  other = await userWith(server, permissions);
});

afterAll(async () => {
  site?.release();
  await server?.close();
  await site?.close();
});

async function heldKnowledge(client: TestUser['client'], name: string) {
  // A page read at training time that answers only when the test says so.
  const knowledge = await client.post('/api/knowledge', minimalKnowledge(name, { urls: [{ title: 'web', url: `${site.url}/hold` }] }));
  expect(knowledge.status).toBe(201);
  return knowledge.body as { _id: string };
}

describe('training as a job', () => {
  it('reports progress from the queue, one per knowledge base, and finishes with the same response', async () => {
    const knowledge = await heldKnowledge(owner.client, 'Garantías');
    const training = owner.client.get(`/api/rag/train/${knowledge._id}`);
    // A queued training already reads as running (jobState 'queued'); wait for the queue to claim it.
    const status = await until(() => owner.client.get(`/api/rag/status/${knowledge._id}`), (r) => r.body.state === 'running' && r.body.jobState === 'running', 'a running training');
    expect(status.body).toMatchObject({ state: 'running', phase: 'planning', jobState: 'running', jobId: expect.any(String) });

    // One training per knowledge base: a second one is refused while the first runs.
    const second = await owner.client.get(`/api/rag/train/${knowledge._id}`);
    expect(second.status).toBe(409);
    expect(second.body.i18nMessage).toBe('error.rag.trainingInProgress');

    const listed = await owner.client.get('/api/jobs');
    expect(listed.status).toBe(200);
    const job = listed.body.items.find((item: { id: string }) => item.id === status.body.jobId);
    expect(job).toMatchObject({ kind: 'train', state: 'running', subject: { entity: 'knowledge', id: knowledge._id, label: 'Garantías' } });
    expect(job.worker).toBeUndefined();

    await site.releaseWhenAsked();
    const done = await training;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ chunks: 1, problems: [] });
    const after = await owner.client.get(`/api/rag/status/${knowledge._id}`);
    expect(after.body).toMatchObject({ state: 'done', outcome: 'trained', chunks: 1, done: 1, total: 1, jobState: 'done' });
    const detail = await owner.client.get(`/api/jobs/${status.body.jobId}`);
    expect(detail.body).toMatchObject({ state: 'done', attempts: 1, progress: { done: 1, total: 1, phase: 'indexing' } });
    expect(detail.body.result).toMatchObject({ chunks: 1 });
  });

  it('a cancelled training ends the request with 409, keeps the index and frees the knowledge base', async () => {
    const knowledge = await heldKnowledge(owner.client, 'Cancelable');
    const training = owner.client.get(`/api/rag/train/${knowledge._id}`);
    // A queued training already reads as running (jobState 'queued'); wait for the queue to claim it,
    // so the job has the instance that runs it (failed on PostgreSQL in a full run otherwise).
    const running = await until(() => owner.client.get(`/api/rag/status/${knowledge._id}`), (r) => r.body.state === 'running' && r.body.jobState === 'running', 'a running training');
    const jobId = running.body.jobId as string;

    // Another user neither sees nor cancels it (404, as for another tenant's record).
    expect((await other.client.get(`/api/jobs/${jobId}`)).status).toBe(404);
    expect((await other.client.post(`/api/jobs/${jobId}/cancel`)).status).toBe(404);
    expect((await other.client.get('/api/jobs')).body.items.map((j: { id: string }) => j.id)).not.toContain(jobId);
    // An administrator sees everyone's with all=true, and which instance runs it.
    const all = await server.get('/api/jobs?all=true');
    expect(all.body.items.find((j: { id: string }) => j.id === jobId)).toMatchObject({ userId: owner.user._id, worker: expect.any(String) });

    const cancel = await owner.client.post(`/api/jobs/${jobId}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.cancelRequested).toBe(true);
    await site.releaseWhenAsked();
    const ended = await training;
    expect(ended.status).toBe(409);
    expect(ended.body.i18nMessage).toBe('error.jobs.cancelled');
    expectErrorShape(ended.body);
    const job = await owner.client.get(`/api/jobs/${jobId}`);
    expect(job.body.state).toBe('cancelled');
    expect((await owner.client.post(`/api/jobs/${jobId}/cancel`)).status).toBe(409);
    const status = await owner.client.get(`/api/rag/status/${knowledge._id}`);
    expect(status.body).toMatchObject({ state: 'idle', chunks: 0, jobState: 'cancelled' });
    // Nothing holds the knowledge base any more.
    const again = owner.client.get(`/api/rag/train/${knowledge._id}`);
    await until(() => owner.client.get(`/api/rag/status/${knowledge._id}`), (r) => r.body.state === 'running', 'the retraining');
    await site.releaseWhenAsked();
    expect((await again).status).toBe(200);
  });
});

describe('imports and exports as jobs', () => {
  it('an export and an import keep their responses and appear in the jobs list with their progress', async () => {
    await create(server, '/api/bots', { name: 'Job bot', description: 'x' }).catch(() => undefined);
    const exported = await owner.client.get('/api/bots/export?format=JSON');
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ url: expect.stringContaining('/files/exports/'), rowCount: expect.any(Number) });
    const jobs = await owner.client.get('/api/jobs?kind=export');
    expect(jobs.body.items[0]).toMatchObject({ kind: 'export', state: 'done', subject: { entity: 'bot', label: 'JSON' } });
    const detail = await owner.client.get(`/api/jobs/${jobs.body.items[0].id}`);
    expect(detail.body.result.url).toBe(exported.body.url);
    // The download link is its user's alone: an administrator sees the job, not its result.
    expect((await server.get(`/api/jobs/${jobs.body.items[0].id}`)).body.result).toBeUndefined();

    const csv = 'name;description\nImportado 1;uno\nImportado 2;dos\n';
    const dry = await owner.client.upload('/api/bots/import?dryRun=true', { name: 'bots.csv', content: csv, type: 'text/csv' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, total: 2, valid: 2, invalid: 0 });
    const bad = await owner.client.upload('/api/bots/import', { name: 'bots.csv', content: 'name;description\n;sin nombre\n', type: 'text/csv' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ i18nMessage: 'error.validation', invalid: 1, errors: [expect.objectContaining({ row: 1, field: 'name' })] });
    const imports = await owner.client.get('/api/jobs?kind=import&limit=2');
    expect(imports.body.items.map((j: { state: string }) => j.state)).toEqual(['failed', 'done']);
    expect(imports.body.items[1]).toMatchObject({ subject: { entity: 'bot', label: 'bots.csv' }, progress: { done: 2, total: 2 } });
  });
});

describe('jobs API checks', () => {
  it('needs a signed-in caller, checks its input and hides what is not the caller\'s', async () => {
    const anonymous = server.as(null);
    expect((await anonymous.get('/api/jobs')).status).toBe(401);
    expect((await anonymous.post('/api/jobs/x/cancel')).status).toBe(401);
    expect((await owner.client.get('/api/jobs?all=true')).status).toBe(403);
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'state=finished', 'all=maybe']) {
      const res = await owner.client.get(`/api/jobs?${query}`);
      expect(res.status, query).toBe(400);
      expectErrorShape(res.body);
    }
    expect((await owner.client.get('/api/jobs/no-such-job')).status).toBe(404);
    // Import files waiting for their job are nobody's to upload into, download or parse by path.
    expect((await owner.client.upload('/api/file/job-uploads', { name: 'x.csv', content: 'a', type: 'text/csv' })).status).toBe(400);
    expect((await server.as(null).get('/files/job-uploads/0123456789abcdef0123456789abcdef.upload')).status).toBe(404);
    expect((await owner.client.post('/api/rag/parse-file', { filepath: 'job-uploads/0123456789abcdef0123456789abcdef.upload' })).status).toBe(404);
    expect((await owner.client.get('/api/jobs?limit=1')).body.items.length).toBeLessThanOrEqual(1);
  });
});

describe('heartbeat', () => {
  const settings = { ...DEFAULT_JOB_SETTINGS, pollMs: 30, heartbeatMs: 100, staleMs: 400, backoffMs: 10 };
  const context = { userId: 'heartbeat-user', tenantId: null, permissions: [] };

  function twoInstances() {
    const store = createJobStore(server.forja.database);
    const silent = { info() {}, warn() {}, error() {}, child() { return silent; } } as never;
    return [new JobQueue(store, settings, silent), new JobQueue(store, settings, silent)] as const;
  }

  it('a job whose instance went silent is run again by another instance', async () => {
    const [a, b] = twoInstances();
    let runsOnA = 0;
    a.handle('test-repeatable', { maxAttempts: 2, run: () => { runsOnA++; return new Promise(() => {}); } });
    b.handle('test-repeatable', { maxAttempts: 2, run: async ({ attempt }) => ({ attempt }) });
    a.start();
    const job = (await a.enqueue({ kind: 'test-repeatable', payload: null, context }))!;
    await until(() => a.get(job.id), (j) => j?.state === 'running', 'A running the job');
    expect((await a.get(job.id))!.worker).toBe(a.worker);
    a.abandon(); // the instance dies: no more heartbeats
    b.start();
    const done = await until(() => b.get(job.id), (j) => j?.state === 'done', 'B finishing the job');
    expect(runsOnA).toBe(1);
    expect(done).toMatchObject({ attempts: 2, result: { attempt: 2 } });
    await b.stop();
  });

  it('a job that must not run twice is marked failed instead', async () => {
    const [a, b] = twoInstances();
    a.handle('test-once', { run: () => new Promise(() => {}) });
    b.handle('test-once', { run: async () => 'ran twice' });
    a.start();
    const job = (await a.enqueue({ kind: 'test-once', payload: null, context }))!;
    await until(() => a.get(job.id), (j) => j?.state === 'running', 'A running the job');
    a.abandon();
    b.start();
    const failed = await until(() => b.get(job.id), (j) => j?.state === 'failed', 'the job marked failed');
    expect(failed).toMatchObject({ attempts: 1, result: null, error: { i18nMessage: 'error.jobs.lost' } });
    await b.stop();
  });

  it('a graceful stop puts running jobs back for another instance', async () => {
    const [a, b] = twoInstances();
    a.handle('test-stop', { run: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) });
    b.handle('test-stop', { run: async () => 'finished on b' });
    a.start();
    const job = (await a.enqueue({ kind: 'test-stop', payload: null, context }))!;
    await until(() => a.get(job.id), (j) => j?.state === 'running', 'A running the job');
    await a.stop();
    expect((await a.get(job.id))!.state).toBe('queued');
    b.start();
    expect(await until(() => b.get(job.id), (j) => j?.state === 'done', 'B finishing')).toMatchObject({ result: 'finished on b' });
    await b.stop();
  });
});

describe('progress', () => {
  // A full run on PostgreSQL once showed a finished import at 0/0: its only progress write was
  // still on the way (another pool connection) when the job finished, and then found it no
  // longer running. Here that write is held until the queue has had every chance to finish.
  it('the last progress reported is kept when the job ends while its write is still on the way', async () => {
    const store = createJobStore(server.forja.database);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let progressWrites = 0;
    let finishes = 0;
    const slowProgress = new Proxy(store, {
      get(target, key) {
        if (key === 'progress') return async (...args: Parameters<JobStore['progress']>) => {
          progressWrites++;
          await held;
          return target.progress(...args);
        };
        if (key === 'finish') return (...args: Parameters<JobStore['finish']>) => {
          finishes++;
          return target.finish(...args);
        };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const silent = { info() {}, warn() {}, error() {}, child() { return silent; } } as never;
    const queue = new JobQueue(slowProgress, { ...DEFAULT_JOB_SETTINGS, pollMs: 30 }, silent);
    queue.handle('test-progress', { run: async ({ progress }) => { progress(2, 2, 'validating'); return 'counted'; } });
    queue.start();
    try {
      const job = (await queue.enqueue({ kind: 'test-progress', payload: null, context: { userId: 'progress-user', tenantId: null, permissions: [] } }))!;
      await until(() => progressWrites, (n) => n === 1, 'the progress write to start');
      const finishedBeforeTheWrite = finishes;
      release();
      const done = await until(() => queue.get(job.id), (j) => j?.state === 'done', 'the job to finish');
      expect(finishedBeforeTheWrite).toBe(0);
      expect(done).toMatchObject({ result: 'counted', progress: { done: 2, total: 2, phase: 'validating' } });
    } finally {
      release();
      await queue.stop();
    }
  });
});
