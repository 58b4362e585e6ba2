import type { Clock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { JobLeaseRepository } from '../../core/jobs/job-lease.repository.ts';
import { scheduleJobs } from '../../core/jobs/job-scheduler.ts';
import { LeasedJob } from '../../core/jobs/leased-job.ts';

/** One vendor's polling pass: refresh its unfinished tasks, end the finished and timed-out ones. */
export interface TaskPlatformPoller {
  readonly name: string;
  poll(nowMs: number): Promise<void>;
}

export interface TaskPollerTiming {
  /** Between two passes (new-api: 15 s). */
  readonly intervalMs: number;
  /** How long a pass's lease keeps other instances off; longer than a pass, renewed every pass. */
  readonly leaseMs: number;
}

export const defaultPollerTiming: TaskPollerTiming = { intervalMs: 15_000, leaseMs: 120_000 };

/** The row in switchboard_job_state whose lease lets one instance poll (its name predates the other jobs' leases). */
const pollLeaseName = 'task-poll-lease';

/**
 * Polls the task vendors every `intervalMs` on one instance only, as a leased job (jobs/leased-job.ts):
 * a pass first takes (or renews) the lease and does nothing without it. Unfinished tasks are read
 * from the database on every pass, so a restart loses none. Tests call `pollOnce` instead of
 * waiting for the timer.
 */
export class TaskPoller {
  private readonly pollers: readonly TaskPlatformPoller[];
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly timing: TaskPollerTiming;
  private readonly job: LeasedJob;

  constructor(dependencies: { pollers: readonly TaskPlatformPoller[]; leases: JobLeaseRepository; clock: Clock; logger: Logger; timing: TaskPollerTiming }) {
    this.pollers = dependencies.pollers;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.timing = dependencies.timing;
    this.job = new LeasedJob(
      { name: 'task-poll', intervalMs: () => this.timing.intervalMs, run: () => this.pass() },
      { leases: dependencies.leases, clock: dependencies.clock, logger: dependencies.logger },
      { leaseName: pollLeaseName, leaseMs: this.timing.leaseMs },
    );
  }

  /** One pass; false when another instance holds the lease. Concurrent calls share one pass. */
  pollOnce(): Promise<boolean> {
    return this.job.run();
  }

  /** Schedules passes every `intervalMs`; the returned stop waits for a running pass and gives the lease up. */
  start(): () => Promise<void> {
    const stopJobs = scheduleJobs([this.job], this.logger);
    return async () => {
      await stopJobs();
      await this.job.release();
    };
  }

  private async pass(): Promise<void> {
    for (const poller of this.pollers) {
      try {
        await poller.poll(this.clock.now());
      } catch (error) {
        this.logger.warn({ err: error, poller: poller.name }, 'task polling failed');
      }
    }
  }
}
