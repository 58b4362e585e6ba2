import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../platform/clock.ts';
import { openDatabase, type DatabaseHandle } from '../platform/database.ts';
import { createLogger } from '../platform/logger.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { JobLeaseRepository } from './job-lease.repository.ts';
import { LeasedJob, leaseLengthMs } from './leased-job.ts';

const minute = 60_000;

/**
 * Two instances = two connection pools on one database, each with its own holder id, running the
 * same job. The timers are the test's calls to `run()`, made by both instances at once every period.
 */
describe.each(testDatabases())('jobs once per cluster on $dialect', (database) => {
  let testApp: TestApp;
  const handles: DatabaseHandle[] = [];
  let ms = Date.now();
  const clock: Clock = { now: () => ms, unixSeconds: () => Math.floor(ms / 1000) };
  let jobNumber = 0;

  /** A job on each instance, counting its runs there. */
  const twoInstancesOf = (intervalMs: number) => {
    jobNumber += 1;
    const name = `counted-${jobNumber}`;
    const runs = [0, 0];
    const jobs = handles.map(
      (handle, index) =>
        new LeasedJob(
          {
            name,
            intervalMs: () => intervalMs,
            run: async () => {
              runs[index] = (runs[index] ?? 0) + 1;
            },
          },
          { leases: new JobLeaseRepository(handle.db), clock, logger: createLogger('silent'), holder: 1000 + index },
        ),
    );
    const [one, two] = jobs;
    if (!one || !two) throw new Error('two instances expected');
    return { one, two, runs, total: () => runs.reduce((sum, count) => sum + count, 0) };
  };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    for (let index = 0; index < 2; index += 1) handles.push(await openDatabase(testApp.config.sqlDsn, testApp.config.sqlitePath));
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await testApp.close();
  });

  it('runs a job once per period when two instances fire it together', async () => {
    const { one, two, runs, total } = twoInstancesOf(minute);
    for (let period = 0; period < 8; period += 1) {
      // Both timers fire at the same moment, in either order: one run per period, no more.
      const ran = await Promise.all(period % 2 === 0 ? [one.run(), two.run()] : [two.run(), one.run()]);
      expect(ran.filter(Boolean)).toHaveLength(1);
      expect(total()).toBe(period + 1);
      ms += minute;
    }
    // The holder keeps the job: the same instance ran every period.
    expect(runs.toSorted()).toEqual([0, 8]);
  });

  it('hands the job over within one lease when its holder dies', async () => {
    const { one, two, runs } = twoInstancesOf(minute);
    expect(await one.run()).toBe(true);
    const lastRenewal = ms;
    // The holder is killed here: it neither runs nor releases any more.
    ms += minute + minute / 2;
    expect(await two.run()).toBe(false);
    // The survivor looks again when the lease would end, not a whole interval later.
    const lease = leaseLengthMs(minute);
    expect(two.intervalMs()).toBe(lastRenewal + lease - ms + 1);
    ms = lastRenewal + lease - 1;
    expect(await two.run()).toBe(false);
    ms = lastRenewal + lease;
    expect(await two.run()).toBe(true);
    expect(runs).toEqual([1, 1]);
    expect(two.intervalMs()).toBe(minute);
    // The old holder, were it only paused, finds the job taken.
    ms += minute;
    expect(await one.run()).toBe(false);
    expect(await two.run()).toBe(true);
  });

  it('hands the job over at once when its holder stops cleanly', async () => {
    const { one, two, runs } = twoInstancesOf(10 * minute);
    expect(await one.run()).toBe(true);
    expect(await two.run()).toBe(false);
    await one.release();
    expect(await two.run()).toBe(true);
    expect(runs).toEqual([1, 1]);
  });

  it('keeps the lease through a run longer than the grace', async () => {
    const { one, two } = twoInstancesOf(minute);
    const slow = new LeasedJob(
      {
        name: one.name,
        intervalMs: () => minute,
        run: async () => {
          // The run takes three leases' time on the clock.
          ms += 3 * leaseLengthMs(minute);
        },
      },
      { leases: new JobLeaseRepository(handles[0]?.db ?? testApp.context.database.db), clock, logger: createLogger('silent'), holder: one.holder },
    );
    expect(await slow.run()).toBe(true);
    // Renewed when the run ended: the other instance is still kept off.
    expect(await two.run()).toBe(false);
  });
});
