/**
 * First-byte limits of the attempts in flight, checked together by one coarse interval instead of a
 * `setTimeout`/`clearTimeout` pair per attempt: the limits are seconds long (120 s by default) and
 * nearly every attempt ends long before its own, so arming and disarming a timer per attempt was pure
 * cost on the relay's hot path. An entry is one Set insertion and one deletion; the interval runs only
 * while some attempt waits, and lets the process exit.
 */

/** How often the waiting attempts are checked: a limit runs out at most this late. */
export const deadlineCheckMs = 100;

export interface Deadline {
  /** Unix ms at which the attempt is abandoned. */
  readonly at: number;
  /** Called once, from the interval, when the deadline passes before the entry was removed. */
  readonly expire: () => void;
}

export class DeadlineSet {
  private readonly waiting = new Set<Deadline>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly checkMs: number;

  constructor(now: () => number = Date.now, checkMs = deadlineCheckMs) {
    this.now = now;
    this.checkMs = checkMs;
  }

  /** Watches `deadline` until `remove` (the first byte came, or the attempt ended) or its time runs out. */
  add(deadline: Deadline): void {
    this.waiting.add(deadline);
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), this.checkMs);
      this.timer.unref();
    }
  }

  remove(deadline: Deadline): void {
    this.waiting.delete(deadline);
  }

  /** Entries still watched (for tests and metrics). */
  get size(): number {
    return this.waiting.size;
  }

  /** Expires what is due; stops the interval once nothing waits. */
  check(): void {
    const now = this.now();
    for (const deadline of this.waiting) {
      if (deadline.at > now) continue;
      this.waiting.delete(deadline);
      deadline.expire();
    }
    if (this.waiting.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** The process's one set: every attempt's first-byte limit. */
export const firstByteDeadlines = new DeadlineSet();
