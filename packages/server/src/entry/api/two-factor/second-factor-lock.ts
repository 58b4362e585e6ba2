import { AppError } from '../../../core/http/app-error.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';
import { twoFactorMessages } from './two-factor.messages.ts';

/**
 * Wrong second-factor codes one user may send before the second step locks, the window they are
 * counted in, and how long the lock lasts. The lock outlasts the window (it starts at the last
 * failure, the window at the first), so a lock never ends on a count still over the limit.
 */
export const secondFactorLimits = { failures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 };

/** One code check counted before the code is looked at. */
export interface CodeCheckReservation {
  /** The right code: the user's own failures are forgiven. */
  succeeded(): Promise<void>;
  /** No guess (the right code, replayed): the attempt is given back. */
  release(): Promise<void>;
}

/**
 * Counts wrong second-factor codes per user, on their own: a right password never resets them (a
 * password is exactly what the guesser has). Each check is counted before the code is looked at, so
 * parallel guesses make at most `failures` checks; past the limit the second step is locked for
 * `lockSeconds` and `onLocked` runs once (the user is told by e-mail). In the shared store, so the
 * count and the lock span instances.
 */
export class SecondFactorLock {
  private readonly store: ExpiringStore;
  private readonly onLocked: (userId: number, ip: string) => Promise<void>;
  private readonly limits: typeof secondFactorLimits;

  constructor(store: ExpiringStore, onLocked: (userId: number, ip: string) => Promise<void>, limits = secondFactorLimits) {
    this.store = store;
    this.onLocked = onLocked;
    this.limits = limits;
  }

  private keys(userId: number) {
    return { failures: `fail:second-factor:user:${userId}`, lock: `lock:second-factor:user:${userId}` };
  }

  async isLocked(userId: number): Promise<boolean> {
    return (await this.store.get(this.keys(userId).lock)) !== undefined;
  }

  /** Counts one check of `userId`'s codes from `ip`; refuses (429) while the second step is locked. */
  async reserve(userId: number, ip: string): Promise<CodeCheckReservation> {
    const keys = this.keys(userId);
    if (await this.isLocked(userId)) throw this.lockedError();
    const count = await this.store.increment(keys.failures, this.limits.windowSeconds);
    if (count > this.limits.failures) {
      // The first attempt past the limit starts the lock and tells the user; the racing others only refuse.
      if (await this.store.setIfAbsent(keys.lock, '1', this.limits.lockSeconds)) await this.onLocked(userId, ip);
      throw this.lockedError();
    }
    return {
      succeeded: () => this.store.delete(keys.failures),
      release: async () => {
        await this.store.decrement(keys.failures);
      },
    };
  }

  private lockedError(): AppError {
    return new AppError(twoFactorMessages.secondStepLocked, { status: 429, params: { minutes: this.limits.lockSeconds / 60 }, code: 'second_factor_locked' });
  }
}
