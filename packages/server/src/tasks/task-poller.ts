import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { scheduleJobs } from '../jobs/job-scheduler.ts';
import type { TaskLeaseRepository } from './task-lease.repository.ts';

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

/**
 * Polls the task vendors every `intervalMs` on one instance only: a pass first takes (or renews) the
 * lease in the database and does nothing without it. Unfinished tasks are read from the database on
 * every pass, so a restart loses none. Tests call `pollOnce` instead of waiting for the timer.
 */
export class TaskPoller {
  private readonly pollers: readonly TaskPlatformPoller[];
  private readonly lease: TaskLeaseRepository;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly timing: TaskPollerTiming;
  /** This instance's lease holder id. */
  private readonly holder = 1 + Math.floor(Math.random() * 2 ** 40);
  private running: Promise<boolean> | undefined;

  constructor(dependencies: { pollers: readonly TaskPlatformPoller[]; lease: TaskLeaseRepository; clock: Clock; logger: Logger; timing: TaskPollerTiming }) {
    this.pollers = dependencies.pollers;
    this.lease = dependencies.lease;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.timing = dependencies.timing;
  }

  /** One pass; false when another instance holds the lease. Concurrent calls share one pass. */
  pollOnce(): Promise<boolean> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Schedules passes every `intervalMs`; the returned stop waits for a running pass and gives the lease up. */
  start(): () => Promise<void> {
    const stopJobs = scheduleJobs([{ name: 'task-poll', intervalMs: () => this.timing.intervalMs, run: () => this.pollOnce() }], this.logger);
    return async () => {
      await stopJobs();
      await this.running;
      await this.lease.release(this.holder).catch((error: unknown) => this.logger.warn({ err: error }, 'task poll lease release failed'));
    };
  }

  private async pass(): Promise<boolean> {
    const now = this.clock.now();
    if (!(await this.lease.acquire(this.holder, now, now + this.timing.leaseMs))) return false;
    for (const poller of this.pollers) {
      try {
        await poller.poll(this.clock.now());
      } catch (error) {
        this.logger.warn({ err: error, poller: poller.name }, 'task polling failed');
      }
    }
    return true;
  }
}
