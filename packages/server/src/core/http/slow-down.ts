import { setTimeout as sleep } from 'node:timers/promises';
import { commonMessages } from '../messages/catalogue.ts';
import { AppError } from './app-error.ts';

export interface SlowDownOptions {
  /** The wait for the first attempt past the limit; each further one doubles it. */
  stepMs: number;
  /** No attempt waits longer than this. */
  maxDelayMs: number;
  /** Requests that may wait at once in this process; past it the next one is refused (429). */
  maxWaiting: number;
}

/**
 * 250 ms at first (a person barely notices), 10 s from the seventh attempt on (a guesser gets a few
 * per minute per request slot), and at most 256 requests parked at once, so a flood cannot pile up
 * sockets and memory in the process.
 */
export const defaultSlowDown: SlowDownOptions = { stepMs: 250, maxDelayMs: 10_000, maxWaiting: 256 };

/**
 * Delays attempts from a client address that is past its failure limit instead of refusing them, so
 * one guesser behind a shared proxy slows the address down without locking every account of it out.
 * The wait is a timer: the event loop keeps serving everyone else meanwhile.
 */
export class SlowDown {
  private readonly options: SlowDownOptions;
  private readonly wait: (ms: number) => Promise<unknown>;
  private waiting = 0;

  constructor(options: Partial<SlowDownOptions> = {}, wait: (ms: number) => Promise<unknown> = sleep) {
    this.options = { ...defaultSlowDown, ...options };
    this.wait = wait;
  }

  /** How long the attempt `excess` places past the limit waits. */
  delayFor(excess: number): number {
    return Math.min(this.options.maxDelayMs, this.options.stepMs * 2 ** Math.max(0, excess - 1));
  }

  async pause(excess: number): Promise<void> {
    if (this.waiting >= this.options.maxWaiting) throw new AppError(commonMessages.tooManyRequests, { status: 429 });
    this.waiting += 1;
    try {
      await this.wait(this.delayFor(excess));
    } finally {
      this.waiting -= 1;
    }
  }
}
