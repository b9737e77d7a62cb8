import { describe, expect, it } from 'vitest';
import { DEFAULT_JOB_SETTINGS, loadJobSettings } from '../../../server/jobs/job-settings.ts';

describe('job queue settings (JOBS_*)', () => {
  it('defaults to a heartbeat that notices a dead instance within a minute', () => {
    const settings = loadJobSettings({});
    expect(settings).toEqual(DEFAULT_JOB_SETTINGS);
    expect(settings.staleMs + settings.heartbeatMs).toBeLessThanOrEqual(60_000);
  });

  it('reads seconds, days and counts', () => {
    expect(loadJobSettings({ JOBS_HEARTBEAT_SECONDS: '0.5', JOBS_STALE_SECONDS: '2', JOBS_CONCURRENCY: '0', JOBS_RETENTION_DAYS: '1', JOBS_POLL_MS: '100' })).toMatchObject({
      heartbeatMs: 500,
      staleMs: 2000,
      concurrency: 0,
      retentionMs: 24 * 3600_000,
      pollMs: 100,
    });
  });

  it('refuses values that would break the queue, naming the variable', () => {
    expect(() => loadJobSettings({ JOBS_CONCURRENCY: '1.5' })).toThrow(/JOBS_CONCURRENCY must be an integer/);
    expect(() => loadJobSettings({ JOBS_POLL_MS: 'soon' })).toThrow(/JOBS_POLL_MS/);
    expect(() => loadJobSettings({ JOBS_MAX_ACTIVE_PER_USER: '0' })).toThrow(/JOBS_MAX_ACTIVE_PER_USER must be an integer of at least 1/);
    // One late heartbeat must not fail a job.
    expect(() => loadJobSettings({ JOBS_HEARTBEAT_SECONDS: '10', JOBS_STALE_SECONDS: '15' })).toThrow(/at least twice JOBS_HEARTBEAT_SECONDS/);
  });
});
