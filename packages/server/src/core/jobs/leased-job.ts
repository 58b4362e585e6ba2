import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { JobLeaseRepository } from './job-lease.repository.ts';
import { type RepeatingJob, scheduleJobs } from './job-scheduler.ts';

/** The least time past a run that a holder keeps its lease, however short the job's interval. */
const minimumGraceMs = 30_000;

/**
 * How long a lease lasts: one interval (the holder renews it every run) plus a grace of another
 * interval, at least 30 s, so a slow run or a late timer never lets it lapse while the holder lives.
 */
export function leaseLengthMs(intervalMs: number): number {
  return intervalMs + Math.max(intervalMs, minimumGraceMs);
}

export interface LeaseDependencies {
  readonly leases: JobLeaseRepository;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This instance's holder id (random per process when absent). */
  readonly holder?: number;
}

/**
 * A background job that runs on one instance of a cluster at a time: each run first takes (or, on
 * the holder, renews) the job's lease in the database and does nothing without it. The holder keeps
 * running the job every interval; the others look again when its lease would end, so when the
 * holder dies (no release, no renewal) another takes the job over within one lease. A clean stop
 * releases the lease for an immediate handover.
 */
export class LeasedJob implements RepeatingJob {
  readonly name: string;
  readonly leaseName: string;
  readonly holder: number;
  private readonly job: RepeatingJob;
  private readonly dependencies: LeaseDependencies;
  private readonly fixedLeaseMs: number | undefined;
  /** Set while another instance holds the lease: when to look again, if sooner than the interval. */
  private recheckInMs: number | undefined;
  private running: Promise<boolean> | undefined;

  constructor(job: RepeatingJob, dependencies: LeaseDependencies, options: { leaseName?: string; leaseMs?: number } = {}) {
    this.job = job;
    this.name = job.name;
    this.leaseName = options.leaseName ?? `lease:${job.name}`;
    this.dependencies = dependencies;
    this.holder = dependencies.holder ?? 1 + Math.floor(Math.random() * 2 ** 40);
    this.fixedLeaseMs = options.leaseMs;
  }

  intervalMs(): number {
    const interval = this.job.intervalMs();
    if (interval <= 0 || this.recheckInMs === undefined) return interval;
    return Math.min(interval, this.recheckInMs);
  }

  /** One run if this instance holds (or takes) the lease; false when another instance holds it. Concurrent calls share one run. */
  run(): Promise<boolean> {
    this.running ??= this.leasedRun().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Gives the lease up (after any run in progress), so another instance takes over at once. */
  async release(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.dependencies.leases
      .release(this.leaseName, this.holder)
      .catch((error: unknown) => this.dependencies.logger.warn({ err: error, job: this.name }, 'job lease release failed'));
  }

  private leaseMs(): number {
    return this.fixedLeaseMs ?? leaseLengthMs(Math.max(1, this.job.intervalMs()));
  }

  private async leasedRun(): Promise<boolean> {
    const { leases, clock } = this.dependencies;
    const now = clock.now();
    const attempt = await leases.acquire(this.leaseName, this.holder, now, now + this.leaseMs());
    if (!attempt.acquired) {
      this.recheckInMs = Math.max(1, attempt.heldUntil - now + 1);
      return false;
    }
    this.recheckInMs = undefined;
    try {
      await this.job.run();
    } finally {
      // Renewed after the run too: a run longer than the grace must not hand the job over while it works.
      const finished = clock.now();
      await leases.acquire(this.leaseName, this.holder, finished, finished + this.leaseMs()).catch(() => undefined);
    }
    return true;
  }
}

/** Schedules jobs that each run on one instance at a time; the returned stop waits for runs and releases the leases. */
export function scheduleLeasedJobs(jobs: readonly RepeatingJob[], dependencies: LeaseDependencies): () => Promise<void> {
  const holder = dependencies.holder ?? 1 + Math.floor(Math.random() * 2 ** 40);
  const leased = jobs.map((job) => new LeasedJob(job, { ...dependencies, holder }));
  const stop = scheduleJobs(leased, dependencies.logger);
  return async () => {
    await stop();
    await Promise.all(leased.map((job) => job.release()));
  };
}
