import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../platform/logger.ts';
import { scheduleJobs } from './job-scheduler.ts';

describe('job scheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs each job at its interval, survives failures, honours pauses and waits for a run on stop', async () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    let interval = 1000;
    let release: () => void = () => undefined;
    const stop = scheduleJobs(
      [
        { name: 'steady', intervalMs: () => interval, run: async () => runs.push('steady') },
        {
          name: 'failing',
          intervalMs: () => 1000,
          run: async () => {
            runs.push('failing');
            throw new Error('boom');
          },
        },
        { name: 'paused', intervalMs: () => 0, run: async () => runs.push('paused') },
        {
          name: 'slow',
          intervalMs: () => 1000,
          run: () =>
            new Promise<void>((resolve) => {
              runs.push('slow');
              release = resolve;
            }),
        },
      ],
      createLogger('silent'),
    );
    await vi.advanceTimersByTimeAsync(2500);
    expect(runs.filter((name) => name === 'steady')).toHaveLength(2);
    expect(runs.filter((name) => name === 'failing')).toHaveLength(2);
    expect(runs.filter((name) => name === 'slow')).toHaveLength(1);
    expect(runs).not.toContain('paused');
    interval = 0;
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs.filter((name) => name === 'steady')).toHaveLength(3);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
