import { isDatabaseUnreachable } from './database-reachability.ts';
import type { Logger } from './logger.ts';

/** Waits between two tries: short at first (a restart takes seconds), then every 15 s at most. */
export const reachRetryDelaysMs: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000];

export interface WaitOptions {
  readonly logger: Logger;
  /** The first failure as it may be printed (secrets hidden). */
  readonly printable: (message: string) => string;
  readonly delaysMs?: readonly number[];
  readonly sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `open` until the database answers. A gateway started while its database restarts or is not up
 * yet (containers starting together) waits for it instead of exiting, which with WORKERS made the
 * primary stop the machine after five quick deaths. One line says why it waits, one that it goes on;
 * what waiting cannot fix (a wrong password, a missing database) is thrown at once.
 */
export async function openWhenReachable<T>(open: () => Promise<T>, options: WaitOptions): Promise<T> {
  const delays = options.delaysMs ?? reachRetryDelaysMs;
  const sleep = options.sleep ?? sleepFor;
  for (let failures = 0; ; failures += 1) {
    try {
      const opened = await open();
      if (failures > 0) options.logger.info({ attempts: failures + 1 }, 'the database answers: starting');
      return opened;
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      if (failures === 0) {
        const message = error instanceof Error ? error.message : String(error);
        options.logger.warn(`${options.printable(message)}; waiting for the database, trying again every few seconds`);
      }
      await sleep(delays[Math.min(failures, delays.length - 1)] ?? 1_000);
    }
  }
}
