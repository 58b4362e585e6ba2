import type { Logger } from '../platform/logger.ts';

export interface RepeatingJob {
  readonly name: string;
  /** Milliseconds until the next run, read after every run so option changes apply; 0 pauses (re-checked each minute). */
  intervalMs(): number;
  run(): Promise<unknown>;
}

const pausedRecheckMs = 60_000;

/**
 * Runs each job on its own timer chain: never two runs of one job at once, a failed run is logged and
 * the next one still comes, and the timers do not keep the process alive. Answers a stop function.
 */
export function scheduleJobs(jobs: readonly RepeatingJob[], logger: Logger): () => Promise<void> {
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  let stopped = false;

  const plan = (job: RepeatingJob) => {
    if (stopped) return;
    const interval = job.intervalMs();
    const timer = setTimeout(
      () => {
        if (interval <= 0) return plan(job);
        const run = job
          .run()
          .catch((error: unknown) => logger.warn({ err: error, job: job.name }, 'background job failed'))
          .finally(() => {
            running.delete(run);
            plan(job);
          });
        running.add(run);
      },
      interval > 0 ? interval : pausedRecheckMs,
    );
    timer.unref();
    timers.set(job.name, timer);
  };

  for (const job of jobs) plan(job);
  return async () => {
    stopped = true;
    for (const timer of timers.values()) clearTimeout(timer);
    await Promise.all(running);
  };
}
